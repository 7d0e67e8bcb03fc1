import { screen } from '@testing-library/react';
import { useState } from 'react';
import { expect, it } from 'vitest';
import { recordsServer, renderInApp } from './dom-app.test-support';
import { TypeAheadInput } from './TypeAheadInput';

function SearchField() {
  const [value, setValue] = useState('energy');
  return (
    <label>
      Search
      <TypeAheadInput
        id="q"
        source={{ baseUrl: `${recordsServer}/lit`, auth: undefined }}
        fields={[]}
        label="Suggestions"
        value={value}
        onChange={setValue}
        onChoose={() => undefined}
      />
    </label>
  );
}

it('text selected in the field while its type-ahead loads is typed over once it has loaded', async () => {
  const { user } = await renderInApp(<SearchField />);
  const plain = screen.getByRole<HTMLInputElement>('textbox', { name: 'Search' });
  // Still the plain field: the combobox's code is not there yet.
  expect(screen.queryByRole('combobox')).toBeNull();
  plain.focus();
  plain.select();

  const combobox = await screen.findByRole('combobox', { name: 'Search' });
  expect(combobox).not.toBe(plain);
  expect(document.activeElement).toBe(combobox);
  await user.keyboard('solar');
  expect(combobox).toHaveProperty('value', 'solar');
});
