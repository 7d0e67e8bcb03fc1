import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import { CiteButton } from './CiteButton';
import { CiteDialog } from './CiteDialog';

const lit = deploymentByKey('LIT')!;
const record: ApiRecord = { repo_id: '1', title: 'Wind power' };

const render = (element: ReturnType<typeof createElement>) =>
  renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, element));

describe('CiteDialog', () => {
  it('is a dialog titled "Cite" with a "Citation style" choice of six styles and two BibTeX variants, and a Copy button', () => {
    const html = render(createElement(CiteDialog, { deployment: lit, records: [record], open: false, onClose: () => {} }));
    expect(html).toMatch(/^<dialog class="cite-dialog" aria-labelledby="([^"]+)"><div class="cite-dialog__header"><h2 id="\1">Cite<\/h2>/);
    expect(html).toMatch(/<label for="([^"]+)">Citation style<\/label><select id="\1">/);
    expect(html.match(/<option /g)).toHaveLength(8);
    expect(html).toContain('>BibTeX (full)</option>');
    expect(html).toContain('>Copy</button>');
    expect(html).toContain('role="status"');
  });
});

describe('CiteButton', () => {
  it('renders only its button until used (the engine and dialog load on demand)', () => {
    const html = render(createElement(CiteButton, { deployment: lit, records: [record] }));
    expect(html).toBe('<button type="button" class="button" aria-haspopup="dialog">Cite</button>');
  });
});
