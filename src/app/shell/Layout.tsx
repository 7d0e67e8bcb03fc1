import { Link, NavLink, Outlet, useLocation, useMatch } from 'react-router';
import { deploymentBySlug } from '../../deployments/registry';
import { DeploymentSwitcher } from './DeploymentSwitcher';
import { ErrorBoundary } from './ErrorBoundary';
import { NavigationFocusProvider } from '../navigation/navigation-focus';
import { readNavigationState } from '../navigation/navigation-state';
import { SkipLink } from './SkipLink';
import { ThemeSwitch } from './ThemeSwitch';

/** The frame around every view: skip link, header with the deployment switcher, notices. */
export function Layout() {
  const location = useLocation();
  const match = useMatch({ path: '/:slug', end: false });
  const deployment = deploymentBySlug(match?.params.slug ?? '');
  const onSearchPage = Boolean(deployment) && !/\/records\//.test(location.pathname);
  const { notice } = readNavigationState(location.state);

  return (
    <NavigationFocusProvider>
      {onSearchPage ? <SkipLink target="results">Skip to results</SkipLink> : <SkipLink target="main">Skip to content</SkipLink>}
      <header className="site-header">
        <div className="site-header__inner">
          <Link to={`/${deployment?.slug ?? ''}`} className="site-title">
            Records Explorer
          </Link>
          <nav aria-label="Search tools" className="site-nav">
            <NavLink to="/all">All catalogs</NavLink>
            <NavLink to="/references">Check references</NavLink>
          </nav>
          <DeploymentSwitcher />
          <ThemeSwitch />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="page">
        {/* Always present so the switch notice is announced when it appears. */}
        <div role="status" className={notice ? 'notice' : 'notice notice--empty'}>
          {notice}
        </div>
        {/* The table's text is one whole sentence; a "Deprecated:" label before it would say it twice. */}
        {deployment?.deprecated && <p className="deprecation">{deployment.deprecated}</p>}
        <ErrorBoundary resetKey={location.pathname}>
          <Outlet />
        </ErrorBoundary>
      </main>
    </NavigationFocusProvider>
  );
}
