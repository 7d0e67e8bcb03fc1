import { useQuery } from '@tanstack/react-query';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { GeneratedIds } from '../../formats/generated-mark';
import { citeKeys } from './cite-keys';
import { loadCiteEngine } from './cite-engine';
import type { CitationStyleId } from './cite-styles';

/** Starts loading what citations are made with (the codecs and the engine), so the dialog's first citation comes sooner. */
export function preloadCitations(): void {
  void import('./format-citations').catch(() => undefined);
  void loadCiteEngine().catch(() => undefined);
}

/**
 * Citations of some records in one style. Records are read-only between imports, so the
 * identifiers name the citations; nothing runs (and the engine is not even loaded) until
 * the dialog is open.
 */
export function useCitations(
  deployment: Deployment,
  records: readonly ApiRecord[],
  style: CitationStyleId,
  options: { enabled: boolean; bibtexPrefix?: string; generated?: GeneratedIds },
) {
  return useQuery({
    queryKey: citeKeys.citations(
      deployment.key,
      style,
      options.bibtexPrefix ?? '',
      records.map((record) => record.repo_id),
      [...(options.generated ?? [])],
    ),
    queryFn: async () => {
      // The codecs behind citations load with the dialog, not with the results page.
      const { formatCitations } = await import('./format-citations');
      return formatCitations({ deployment, records, style, bibtexPrefix: options.bibtexPrefix, generated: options.generated }, () =>
        loadCiteEngine(),
      );
    },
    enabled: options.enabled && records.length > 0,
    staleTime: Infinity,
    // A failure here is a style file or the engine chunk not loading: worth one more try.
    retry: 1,
  });
}
