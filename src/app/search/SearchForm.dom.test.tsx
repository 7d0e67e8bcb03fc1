import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import type { Entries } from '../navigation/query-params';
import { renderInApp } from '../ui/dom-app.test-support';
import { SearchForm } from './SearchForm';

const lit = deploymentByKey('LIT')!;

function renderForm(entries: Entries = [], serverErrors: Record<string, string> = {}) {
  const query = new URLSearchParams(entries.map(([name, value]) => [name, value])).toString();
  return renderInApp(
    <SearchForm
      deployment={lit}
      entries={entries}
      serverErrors={serverErrors}
      prefersAdvanced={false}
      onPrefersAdvancedChange={vi.fn()}
      extensions
    />,
    { path: `/lit${query ? `?${query}` : ''}` },
  );
}

/** What a screen reader reads after a field's name: the texts its aria-describedby names. */
function description(field: HTMLElement): string {
  return (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('SearchForm', () => {
  it('searches what was typed when Enter is pressed', async () => {
    const { user, location } = await renderForm();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'wind turbine{Enter}');
    await waitFor(() => expect(location()).toBe('/lit?q=wind%20turbine'));
  });

  it('reads a fielded search into its parameters when the Search button is pressed', async () => {
    const { user, location } = await renderForm();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'author:Okafor wind');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(new URLSearchParams(location().split('?')[1]).get('author')).toBe('Okafor'));
    expect(new URLSearchParams(location().split('?')[1]).get('q')).toBe('wind');
  });

  it('stops a search with nothing to search for: the error is shown, tied to the field, which takes focus', async () => {
    const { user, location } = await renderForm([['q', 'solar']]);
    const box = screen.getByRole('searchbox', { name: 'Search' });
    await user.clear(box);
    await user.type(box, '*{Enter}');
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    expect(document.activeElement).toBe(box);
    expect(description(box)).toBe('“*” has no words to search for.');
    expect(location()).toBe('/lit?q=solar');
    // Typing again clears the complaint.
    await user.type(box, 'wind');
    expect(box.getAttribute('aria-invalid')).toBeNull();
  });

  it('opens the advanced criteria, refuses a reversed date range with the reason at the field, and focuses it', async () => {
    const { user, location } = await renderForm([['q', 'wind']]);
    await user.click(screen.getByRole('button', { name: 'Advanced search' }));
    const panel = screen.getByRole('group', { name: `Advanced criteria for ${lit.name}` });
    const from = within(panel).getByLabelText('Published on or after');
    await user.type(from, '2020-05-01');
    await user.type(within(panel).getByLabelText('Published on or before'), '2010-01-01');
    await user.click(screen.getByRole('button', { name: 'Apply criteria' }));
    await waitFor(() => expect(from.getAttribute('aria-invalid')).toBe('true'));
    expect(document.activeElement).toBe(from);
    expect(description(from)).toContain('Published on or after must not be later than published on or before.');
    expect(location()).toBe('/lit?q=wind');
  });

  it("shows the server's complaint about an advanced field with the panel opened to it", async () => {
    await renderForm([['publication_date_start', '02/30/2024']], { publication_date_start: 'Not a date: 02/30/2024.' });
    const field = await screen.findByLabelText('Published on or after');
    await waitFor(() => expect(field.closest('[hidden]')).toBeNull());
    expect(description(field)).toContain('Not a date: 02/30/2024.');
  });
});
