import { Fragment } from 'react';
import { formatNumber } from '../ui/format';
import type { YearCount } from './year-range';

/** The parts of the year chart (YearChart.tsx) that only show what they are given. */

type Bound = 'from' | 'to';

interface InputsProps {
  readonly ids: Readonly<Record<Bound | 'error', string>>;
  readonly texts: Readonly<Record<Bound, string>>;
  readonly placeholders: Readonly<Record<Bound, number>>;
  /** Why the typed years cannot be applied; '' when they can. */
  readonly error: string;
  /** Whether a range is set (then "Any year" clears it). */
  readonly ranged: boolean;
  readonly onChange: (texts: Record<Bound, string>) => void;
  readonly onSubmit: () => void;
  readonly onClear: () => void;
}

/** From and To typed as years, applied together; the reason beside them when they cannot be. */
export function YearInputs({ ids, texts, placeholders, error, ranged, onChange, onSubmit, onClear }: InputsProps) {
  return (
    <>
      <form
        className="year-chart__inputs"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {(['from', 'to'] as const).map((bound) => (
          <Fragment key={bound}>
            <label htmlFor={ids[bound]}>{bound === 'from' ? 'From' : 'To'}</label>
            <input
              id={ids[bound]}
              type="number"
              inputMode="numeric"
              step={1}
              placeholder={String(placeholders[bound])}
              value={texts[bound]}
              aria-invalid={error !== ''}
              aria-describedby={error ? ids.error : undefined}
              onChange={(event) => onChange({ ...texts, [bound]: event.target.value })}
            />
          </Fragment>
        ))}
        <button type="submit" className="button">
          Apply<span className="visually-hidden"> years</span>
        </button>
        {ranged && (
          <button type="button" className="button button--quiet" onClick={onClear}>
            Any year
          </button>
        )}
      </form>
      {error && (
        <p id={ids.error} className="field__error">
          {error}
        </p>
      )}
    </>
  );
}

/** Every year with records, as a table: what the bars show, for a screen reader or a copy. */
export function YearTable({ bars }: { bars: readonly YearCount[] }) {
  return (
    <details className="year-chart__table">
      <summary>Records per year as a table</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Year</th>
            <th scope="col">Records</th>
          </tr>
        </thead>
        <tbody>
          {bars
            .filter((bar) => bar.count > 0)
            .map(({ year, count }) => (
              <tr key={year}>
                <th scope="row">{year}</th>
                <td>{formatNumber(count)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </details>
  );
}
