import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { SearchRoute } from '../pages/SearchRoute';
import { Layout } from './Layout';
import type { NavigationState } from '../navigation/navigation-state';
import { NotFoundPage } from '../ui/NotFoundPage';

// The record page is a second step, so it loads on demand and keeps the first load small.
const RecordRoute = lazy(() => import('../pages/RecordRoute').then((module) => ({ default: module.RecordRoute })));

// The all-catalogs search is a route of its own; the single-catalog search stays in the first load.
const AllCatalogsPage = lazy(() => import('../all/AllCatalogsPage').then((module) => ({ default: module.AllCatalogsPage })));

// Checking a reference list brings the BibTeX reader; it loads only there.
const ReferencesRoute = lazy(() => import('../pages/ReferencesRoute').then((module) => ({ default: module.ReferencesRoute })));

// A redirect is part of the first load, not a navigation the user made: focus stays put.
const redirectState: NavigationState = { keepFocus: true };

/**
 * The routes. Declarative routing (not the data router) on purpose: the app loads its data
 * with React Query, and the data router would add about 17 KB gzip to the first load.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Layout />}>
        {/* Every catalog at once is the default search; each catalog keeps its own route. */}
        <Route index element={<Navigate to="/all" replace state={redirectState} />} />
        <Route
          path="all"
          element={
            <Suspense fallback={<p className="loading">Loading…</p>}>
              <AllCatalogsPage />
            </Suspense>
          }
        />
        <Route
          path="references"
          element={
            <Suspense fallback={<p className="loading">Loading…</p>}>
              <ReferencesRoute />
            </Suspense>
          }
        />
        <Route path=":slug" element={<SearchRoute />} />
        <Route
          path=":slug/records/:id"
          element={
            <Suspense fallback={<p className="loading">Loading record…</p>}>
              <RecordRoute />
            </Suspense>
          }
        />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
