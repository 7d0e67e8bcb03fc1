import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type KeyboardEvent } from 'react';
import type { ApiAuth } from '../../client/auth';
import type { Completion } from '../../formats/complete-response';
import { completeKeys } from './complete-keys';
import { focusedField } from './TypeAheadInput';

/** Where completions come from: a server with the `/complete` extension. */
export interface CompletionSource {
  readonly baseUrl: string;
  readonly auth: ApiAuth | undefined;
}

/** Servers that answered 404: asked no more for this page's life. */
const without = new Set<string>();
/** Keystrokes closer together than this ask once. */
const typingPause = 150;

function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), typingPause);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'role' | 'list'>;

/**
 * A text input with type-ahead: an ARIA 1.2 combobox whose listbox offers the values the
 * server's `/complete` has for what was typed (debounced; a request out of date is cancelled
 * through react-query's signal), each with its record count. Up and Down move through them,
 * Enter chooses, Escape closes, Tab leaves; a live region says how many there are. Without a
 * source, or against a server without the extension, it is the plain input.
 */
export function TypeAhead({
  source,
  fields,
  label,
  fieldLabel,
  value,
  onChange,
  onChoose,
  ...input
}: InputProps & {
  readonly id: string;
  readonly source: CompletionSource | undefined;
  /** The fields (facet names) whose values to offer; empty for all the server has. */
  readonly fields: readonly string[];
  /** What the values are, for the listbox's name. */
  readonly label: string;
  /** A field's name as readers know it, shown beside each value when several fields are offered. */
  readonly fieldLabel?: (field: string) => string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onChoose: (completion: Completion) => void;
}) {
  const listId = useId();
  const field = useRef<HTMLInputElement>(null);
  // Typing began in the plain field this replaced (TypeAheadInput.tsx): it goes on here, over
  // the same selection (text selected to be typed over is typed over).
  const [open, setOpen] = useState(() => focusedField.element?.id === input.id);
  useEffect(() => {
    const plain = focusedField.element;
    if (plain?.id !== input.id || !field.current) return;
    field.current.focus();
    field.current.setSelectionRange(plain.selectionStart, plain.selectionEnd, plain.selectionDirection ?? undefined);
  }, [input.id]);
  const [active, setActive] = useState(-1);
  const typed = useSettled(value.trim());
  const asking = source !== undefined && open && typed !== '' && !without.has(source.baseUrl);
  const { data } = useQuery({
    queryKey: completeKeys.values(source?.baseUrl, fields, typed),
    queryFn: async ({ signal }) => {
      // Loaded on the first keystroke that asks: no part of the page's first load.
      const { fetchCompletions } = await import('../../client/complete');
      const values = await fetchCompletions(source!.baseUrl, typed, fields, { signal, auth: source!.auth });
      if (values === null) without.add(source!.baseUrl);
      return values ?? [];
    },
    enabled: asking,
    retry: false,
  });
  const options = asking && value.trim() !== '' ? (data ?? []) : [];
  const expanded = options.length > 0;
  const optionId = (index: number) => `${listId}-${index}`;

  function choose(completion: Completion) {
    setOpen(false);
    setActive(-1);
    onChoose(completion);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      if (!expanded) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // Past either end is back in the input (-1), as typed.
      setActive((current) => {
        const next = current + step;
        return next >= options.length ? -1 : next < -1 ? options.length - 1 : next;
      });
    } else if (event.key === 'Enter' && expanded && active >= 0 && active < options.length) {
      event.preventDefault();
      choose(options[active]!);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  }

  if (!source) return <input {...input} ref={field} value={value} onChange={(event) => onChange(event.target.value)} />;
  return (
    <div className="typeahead">
      <input
        {...input}
        ref={field}
        value={value}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 && active < options.length ? optionId(active) : undefined}
        autoComplete="off"
        onChange={(event) => {
          onChange(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
        }}
      />
      <ul id={listId} role="listbox" aria-label={label} className="typeahead__list" hidden={!expanded}>
        {options.map((option, index) => (
          <li
            key={`${option.field}\u0000${option.value}`}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className="typeahead__option"
            // Chosen on press, before the input's blur would close the list.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(option);
            }}
          >
            <span className="typeahead__value">
              {option.value}
              {fieldLabel && <span className="typeahead__field"> · {fieldLabel(option.field)}</span>}
            </span>
            <span className="typeahead__count">
              {option.count.toLocaleString('en-US')} {option.count === 1 ? 'record' : 'records'}
            </span>
          </li>
        ))}
      </ul>
      <span className="visually-hidden" role="status">
        {expanded ? `${options.length} ${options.length === 1 ? 'suggestion' : 'suggestions'}; Up and Down to choose.` : ''}
      </span>
    </div>
  );
}
