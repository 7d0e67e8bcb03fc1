import { useRef } from 'react';
import { Link } from 'react-router';
import { deployments } from '../../deployments/registry';
import { useDocumentTitle, useFocusOnNavigation } from '../navigation/navigation-focus';

export function NotFoundPage() {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnNavigation(heading);
  useDocumentTitle('Page not found');
  return (
    <section className="not-found">
      <h1 ref={heading} tabIndex={-1}>
        Page not found
      </h1>
      <p>There is no page at this address. The app searches these deployments:</p>
      <ul>
        {deployments.map((deployment) => (
          <li key={deployment.key}>
            <Link to={`/${deployment.slug}`}>
              {deployment.name} {deployment.version}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
