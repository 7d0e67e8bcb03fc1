import { useParams } from 'react-router';
import { deploymentBySlug } from '../../deployments/registry';
import { NotFoundPage } from '../ui/NotFoundPage';
import { RecordPage } from './RecordPage';

export function RecordRoute() {
  const params = useParams();
  const deployment = deploymentBySlug(params.slug ?? '');
  if (!deployment || !params.id) return <NotFoundPage />;
  return <RecordPage key={`${deployment.key}/${params.id}`} deployment={deployment} repoId={params.id} />;
}
