import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../client/config';
import { fetchRecord } from '../../client/records';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import { appConfig, renderInApp } from '../ui/dom-app.test-support';
import { CiteButton } from './CiteButton';
import { CiteDialog } from './CiteDialog';

const lit = deploymentByKey('LIT')!;
let config: AppConfig;
let record: ApiRecord;

beforeAll(async () => {
  config = await appConfig();
  // 1001: "Wind turbine blade fatigue testing" by Okafor, Chidi and Lindqvist, Sara B. (2019).
  ({ record } = await fetchRecord(config.baseUrls.LIT, '1001', { deployment: lit }));
});

/** The citations once made (the engine loads with the dialog). */
const citationsText = async () => (await screen.findByRole('region', { name: 'Citations' }, { timeout: 20_000 })).textContent;

describe('CiteDialog', () => {
  it('cites in APA first; choosing IEEE changes the citation, and the choice is remembered for the next dialog', async () => {
    const { user, unmount } = await renderInApp(<CiteDialog deployment={lit} records={[record]} open onClose={() => {}} />, { config });
    const dialog = screen.getByRole('dialog', { name: 'Cite' });
    const apa = await citationsText();
    expect(apa).toContain('Okafor, C., & Lindqvist, S. B. (2019). Wind turbine blade fatigue testing');

    await user.selectOptions(within(dialog).getByLabelText('Citation style'), 'IEEE');
    await waitFor(() => expect(screen.getByRole('region', { name: 'Citations' }).textContent).not.toBe(apa), { timeout: 20_000 });
    expect(screen.getByRole('region', { name: 'Citations' }).textContent).toMatch(/C\. Okafor and S\. B\. Lindqvist, .Wind turbine blade/);

    unmount();
    await renderInApp(<CiteDialog deployment={lit} records={[record]} open onClose={() => {}} />, { config });
    expect(screen.getByLabelText<HTMLSelectElement>('Citation style').value).toBe('ieee');
  });

  it('copies the citation and announces it in the live region that was there all along', async () => {
    const { user } = await renderInApp(<CiteDialog deployment={lit} records={[record]} open onClose={() => {}} />, { config });
    const dialog = screen.getByRole('dialog', { name: 'Cite' });
    const status = within(dialog).getByRole('status');
    expect(status.textContent).toBe('');
    const citation = await citationsText();
    const copy = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Copy' });
    await waitFor(() => expect(copy.disabled).toBe(false));
    await user.click(copy);
    await waitFor(() => expect(status.textContent).toBe('Copied'));
    expect(await navigator.clipboard.readText()).toBe(citation);
  });

  it('says the copy failed, and how to copy instead, where the browser allows no copying', async () => {
    const { user } = await renderInApp(<CiteDialog deployment={lit} records={[record]} open onClose={() => {}} />, { config });
    await citationsText();
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Could not copy: .* Select the citation text and copy it instead\./);
  });
});

describe('CiteButton', () => {
  it('is one button until used; pressing it opens the Cite dialog with the citation', async () => {
    const { user } = await renderInApp(<CiteButton deployment={lit} records={[record]} />, { config });
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cite' }));
    expect(await screen.findByRole('dialog', { name: 'Cite' }, { timeout: 20_000 })).toBeTruthy();
    expect(await citationsText()).toContain('Wind turbine blade fatigue testing');
  });
});
