import { lazy, Suspense, type ComponentProps } from 'react';

/**
 * The type-ahead combobox (TypeAhead.tsx), loaded after the page's first JavaScript: until
 * it is there the field is the plain input, and a field focused meanwhile keeps the focus.
 */
const TypeAhead = lazy(async () => ({ default: (await import('./TypeAhead')).TypeAhead }));

type Props = ComponentProps<typeof TypeAhead>;

export function TypeAheadInput(props: Props) {
  const {
    source: _source,
    fields: _fields,
    label: _label,
    fieldLabel: _fieldLabel,
    value,
    onChange,
    onChoose: _onChoose,
    ...input
  } = props;
  const plain = (
    <input
      {...input}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onFocus={(event) => (focusedField.element = event.currentTarget)}
      onBlur={() => (focusedField.element = undefined)}
    />
  );
  if (!props.source) return plain;
  return (
    <Suspense fallback={plain}>
      <TypeAhead {...props} />
    </Suspense>
  );
}

/** The plain field that had the focus when the combobox replaced it. */
export const focusedField: { element: HTMLInputElement | undefined } = { element: undefined };
