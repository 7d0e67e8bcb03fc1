import { useLocation, useMatch, useNavigate } from 'react-router';
import { deploymentBySlug, deployments, displayName } from '../../deployments/registry';
import { queryString } from '../../client/urls';
import { entriesOf } from '../navigation/query-params';
import { convertCriteria, droppedNotice } from '../navigation/switch-deployment';
import { useHasFacetsOf } from '../config/config-context';
import { readNavigationState, type NavigationState } from '../navigation/navigation-state';

function optionText(deployment: (typeof deployments)[number]): string {
  return deployment.deprecated ? `${displayName(deployment)} (deprecated release candidate)` : displayName(deployment);
}

/** The switcher's value for the all-catalogs search (no deployment has this slug). */
const allCatalogs = 'all';

/**
 * Chooses the deployment, or all catalogs at once. Switching carries the current search over
 * (from a record page: the search it was opened from), converted to the new deployment, and
 * says what was dropped.
 */
export function DeploymentSwitcher() {
  const navigate = useNavigate();
  const location = useLocation();
  const match = useMatch({ path: '/:slug', end: false });
  const current = deploymentBySlug(match?.params.slug ?? '');
  const onRecordPage = /\/records\//.test(location.pathname);
  const hasFacets = useHasFacetsOf();

  const onAll = location.pathname === `/${allCatalogs}`;

  // The all-catalogs criteria bring the fielded-syntax reader, which stays out of the first load.
  const loadCatalogCriteria = () => import('../all/catalog-criteria');

  async function switchTo(slug: string) {
    const search = onRecordPage ? (readNavigationState(location.state).from?.search ?? '') : location.search;
    if (slug === allCatalogs) {
      const { allCatalogsCriteria } = await loadCatalogCriteria();
      if (!onAll)
        void navigate(`/${allCatalogs}${queryString(current ? allCatalogsCriteria(current, entriesOf(search)) : [])}`, {
          state: { keepFocus: true },
        });
      return;
    }
    const target = deploymentBySlug(slug);
    if (!target || target === current) return;
    const { entries, dropped } = current
      ? convertCriteria(current, target, entriesOf(search), { extensions: hasFacets(target) })
      : onAll
        ? (await loadCatalogCriteria()).criteriaForCatalog(target, entriesOf(search), hasFacets(target))
        : { entries: [], dropped: [] };
    const state: NavigationState = { keepFocus: true, notice: droppedNotice(dropped, target) };
    void navigate(`/${target.slug}${queryString(entries)}`, { state });
  }

  return (
    <div className="switcher">
      <label htmlFor="deployment">Deployment</label>
      <select id="deployment" value={onAll ? allCatalogs : (current?.slug ?? '')} onChange={(event) => void switchTo(event.target.value)}>
        {!current && !onAll && <option value="">Choose a deployment</option>}
        <option value={allCatalogs}>All catalogs</option>
        {deployments.map((deployment) => (
          <option key={deployment.key} value={deployment.slug}>
            {optionText(deployment)}
          </option>
        ))}
      </select>
    </div>
  );
}
