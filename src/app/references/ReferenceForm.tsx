import { useId, useRef, useState, type ChangeEvent } from 'react';
import { formatNumber } from '../ui/format';
import { maxInputBytes, maxReferencesPerRun } from './reference-input';

export interface ReferenceFormProps {
  readonly initialInput: string;
  readonly running: boolean;
  readonly hasResults: boolean;
  /** Checks `text`; `input` is what may be kept with the results (an opened file is not). */
  readonly onCheck: (text: string, input: string) => void;
  readonly onStop: () => void;
  readonly onClear: () => void;
  readonly onMessage: (message: string | undefined) => void;
}

/** The list to check: pasted into the box or opened from a file, with Check, Stop and Clear. */
export function ReferenceForm({ initialInput, running, hasResults, onCheck, onStop, onClear, onMessage }: ReferenceFormProps) {
  const [input, setInput] = useState(initialInput);
  const [file, setFile] = useState<{ name: string; text: string }>();
  const textArea = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  const fileId = useId();
  const hintId = useId();

  async function openFile(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    if (chosen.size > maxInputBytes) {
      onMessage(
        `${chosen.name} is ${(chosen.size / 1e6).toFixed(1)} MB; at most ${maxInputBytes / 1e6} MB can be checked. Split the list.`,
      );
      return;
    }
    onMessage(undefined);
    setFile({ name: chosen.name, text: await chosen.text() });
  }

  function check() {
    const text = file?.text ?? input;
    if (text.trim() === '') {
      onMessage('Paste a reference list or open a file first.');
      textArea.current?.focus();
      return;
    }
    // A pasted list is kept with its results; an opened file's results only (the file is the user's).
    onCheck(text, file ? '' : input);
  }

  return (
    <form
      className="references-form"
      aria-label="References to check"
      onSubmit={(event) => {
        event.preventDefault();
        check();
      }}
    >
      <label htmlFor={inputId} className="search-form__label">
        References
      </label>
      <textarea
        id={inputId}
        ref={textArea}
        rows={10}
        value={input}
        spellCheck={false}
        aria-describedby={hintId}
        onChange={(event) => setInput(event.target.value)}
        disabled={running || file !== undefined}
      />
      <p id={hintId} className="references-form__hint">
        Up to {formatNumber(maxReferencesPerRun)} references in one run.
      </p>
      <div className="references-form__file">
        <label htmlFor={fileId}>Or open a file (BibTeX, RIS or text)</label>
        <input
          id={fileId}
          type="file"
          accept=".bib,.bibtex,.ris,.txt,text/plain,application/x-bibtex,application/x-research-info-systems"
          onChange={(event) => void openFile(event)}
          disabled={running}
        />
        {file && (
          <p>
            Checking the file {file.name} ({formatNumber(Math.ceil(file.text.length / 1000))} KB) instead of the text box.{' '}
            <button type="button" className="button button--quiet" onClick={() => setFile(undefined)}>
              Use the text box
            </button>
          </p>
        )}
      </div>
      <div className="references-form__actions">
        <button type="submit" className="button button--primary" disabled={running}>
          Check references
        </button>
        {running && (
          <button type="button" className="button" onClick={onStop}>
            Stop
          </button>
        )}
        {!running && (input !== '' || hasResults) && (
          <button
            type="button"
            className="button button--quiet"
            onClick={() => {
              setInput('');
              setFile(undefined);
              onClear();
            }}
          >
            Clear list and results
          </button>
        )}
      </div>
    </form>
  );
}
