import { useParams } from 'react-router';
import { deploymentBySlug } from '../../deployments/registry';
import { NotFoundPage } from '../ui/NotFoundPage';
import { SearchPage } from './SearchPage';

export function SearchRoute() {
  const deployment = deploymentBySlug(useParams().slug ?? '');
  return deployment ? <SearchPage deployment={deployment} /> : <NotFoundPage />;
}
