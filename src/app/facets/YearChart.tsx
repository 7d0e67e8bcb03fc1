import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import { queryString } from '../../client/urls';
import type { NavigationState } from '../navigation/navigation-state';
import { formatNumber } from '../ui/format';
import type { FacetSectionProps } from './CombinedFacet';
import { useUnrangedYears } from './combined-queries';
import { YearInputs, YearTable } from './YearChartParts';
import { readYearInputs, withYearRange, yearBars, yearRangeOf, type YearCount, type YearRange } from './year-range';

/**
 * Matching records per publication year as a bar chart, and a range of years chosen on it
 * (drag across bars, or click the first and the last), with a two-thumb slider for the
 * keyboard and From/To inputs; the range is the search's publication-date criterion.
 * While a range is set the chart counts the search without it, so every year stays drawn.
 */
export function YearChart({ deployment, entries, facet, counts, baseUrl, auth }: FacetSectionProps) {
  const navigate = useNavigate();
  const range = yearRangeOf(deployment, facet, entries);
  const ranged = range.from !== undefined || range.to !== undefined;
  const unranged = useUnrangedYears(deployment, baseUrl, entries, auth, ranged);
  const source = ranged ? unranged.data : counts;
  const computed = useMemo(() => yearBars(source?.values ?? []), [source]);
  // Keep the last bars while the counts of a new range load, so a focused thumb stays put.
  const kept = useRef(computed);
  /* eslint-disable react-hooks/refs -- the ref carries the last bars across renders on purpose (above) */
  if (computed.length > 0) kept.current = computed;
  const bars = computed.length > 0 ? computed : kept.current;
  /* eslint-enable react-hooks/refs */
  if (bars.length === 0) return null;

  const apply = (next: YearRange) => {
    const state: NavigationState = { keepFocus: true };
    void navigate(`/${deployment.slug}${queryString(withYearRange(deployment, facet, entries, next))}`, { state });
  };
  return <YearChartBody label={facet.label} bars={bars} range={range} busy={ranged && unranged.isFetching} onApply={apply} />;
}

interface Draft {
  readonly from: number;
  readonly to: number;
}

/** A slider's step keys: arrows by a year, Page Up/Down by ten. */
const steps: Readonly<Record<string, number>> = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -10, PageUp: 10 };

/** Keys pressed on a thumb are applied once the researcher stops pressing. */
const keyDelay = 600;

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

// The drawing's own units; the SVG stretches to the column's width.
const width = 300;
const height = 90;

interface BodyProps {
  readonly label: string;
  readonly bars: readonly YearCount[];
  readonly range: YearRange;
  readonly busy: boolean;
  readonly onApply: (range: YearRange) => void;
}

interface Picking {
  /** The first year clicked of two, until the second is. */
  readonly pending: number | undefined;
  readonly setPending: (year: number | undefined) => void;
  /** Shows a range without applying it. */
  readonly show: (draft: Draft) => void;
  /** Applies the range between two years, in either order. */
  readonly commit: (from: number, to: number) => void;
}

/** Years picked on the bars with a pointer: dragged across (applied on release), or two clicks. */
function useYearPicking(svg: RefObject<SVGSVGElement | null>, bars: readonly YearCount[], { pending, setPending, show, commit }: Picking) {
  const drag = useRef<{ anchor: number; moved: boolean }>(undefined);
  const first = bars[0]!.year;
  const yearAt = (clientX: number) => {
    const box = svg.current!.getBoundingClientRect();
    const index = Math.floor(((clientX - box.left) / Math.max(box.width, 1)) * bars.length);
    return first + clamp(index, 0, bars.length - 1);
  };
  const down = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { anchor: yearAt(event.clientX), moved: false };
  };
  const move = (event: PointerEvent<SVGSVGElement>) => {
    if (!drag.current) return;
    const year = yearAt(event.clientX);
    if (year === drag.current.anchor && !drag.current.moved) return;
    drag.current.moved = true;
    show({ from: Math.min(drag.current.anchor, year), to: Math.max(drag.current.anchor, year) });
  };
  const up = (event: PointerEvent<SVGSVGElement>) => {
    if (!drag.current) return;
    const { anchor, moved } = drag.current;
    drag.current = undefined;
    const year = yearAt(event.clientX);
    if (moved && year !== anchor) {
      setPending(undefined);
      commit(anchor, year);
    } else if (pending !== undefined) {
      // The second of two clicks: the range between them (the same bar twice: that year).
      setPending(undefined);
      commit(pending, year);
    } else {
      setPending(year);
      show({ from: year, to: year });
    }
  };

  return { down, move, up, cancel: () => (drag.current = undefined) };
}

function YearChartBody({ label, bars, range, busy, onApply }: BodyProps) {
  const ids = { title: useId(), from: useId(), to: useId(), error: useId(), hint: useId() };
  const first = bars[0]!.year;
  const last = bars.at(-1)!.year;
  const current: Draft = { from: clamp(range.from ?? first, first, last), to: clamp(range.to ?? last, first, last) };
  const [draft, setDraft] = useState<Draft>(current);
  const [texts, setTexts] = useState({
    from: range.from === undefined ? '' : String(range.from),
    to: range.to === undefined ? '' : String(range.to),
  });
  const [pending, setPending] = useState<number>();
  const [error, setError] = useState('');
  const svg = useRef<SVGSVGElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // A new range in the URL (applied here, by a chip, or by back/forward) resets what is shown.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the URL is outside React's state: its new range replaces the draft.
    setDraft(current);
    setTexts({ from: range.from === undefined ? '' : String(range.from), to: range.to === undefined ? '' : String(range.to) });
    setPending(undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `current` is made from these bounds anew each render.
  }, [range.from, range.to, first, last]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = (next: Draft) => {
    setDraft(next);
    setTexts({ from: String(next.from), to: String(next.to) });
    setError('');
  };
  const commit = (from: number, to: number) => {
    clearTimeout(timer.current);
    onApply({ from: Math.min(from, to), to: Math.max(from, to) });
  };

  const picking = useYearPicking(svg, bars, { pending, setPending, show, commit });

  const thumbKey = (which: keyof Draft) => (event: KeyboardEvent<SVGCircleElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit(draft.from, draft.to);
      return;
    }
    const [low, high] = which === 'from' ? [first, draft.to] : [draft.from, last];
    const step = steps[event.key];
    const value = step !== undefined ? draft[which] + step : event.key === 'Home' ? low : event.key === 'End' ? high : undefined;
    if (value === undefined) return;
    event.preventDefault();
    const next = { ...draft, [which]: clamp(value, low, high) };
    show(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(next.from, next.to), keyDelay);
  };

  const submit = () => {
    const read = readYearInputs(texts.from, texts.to);
    if ('error' in read) {
      setError(read.error);
      return;
    }
    setError('');
    clearTimeout(timer.current);
    onApply(read.range);
  };

  const countOf = (year: number) => bars[year - first]?.count ?? 0;
  const peak = bars.reduce((best, bar) => (bar.count > best.count ? bar : best), bars[0]!);
  const tallest = Math.max(peak.count, 1);
  const slot = width / bars.length;
  const position = (year: number) => `${((year - first + 0.5) / bars.length) * 100}%`;
  const ranged = range.from !== undefined || range.to !== undefined;
  // Positions are SVG attributes in percent, not inline styles: the app sets no style
  // attribute, so the strict CSP holds and any style attribute would be a record's markup.
  const thumb = (which: keyof Draft) => {
    const year = draft[which];
    return (
      <circle
        role="slider"
        tabIndex={0}
        className={`year-chart__thumb year-chart__thumb--${which}`}
        cx={position(year)}
        cy="50%"
        aria-label={which === 'from' ? 'First year' : 'Last year'}
        aria-valuemin={which === 'from' ? first : draft.from}
        aria-valuemax={which === 'from' ? draft.to : last}
        aria-valuenow={year}
        aria-valuetext={`${year}, ${formatNumber(countOf(year))} ${countOf(year) === 1 ? 'record' : 'records'}`}
        aria-describedby={ids.hint}
        onKeyDown={thumbKey(which)}
      />
    );
  };

  return (
    <fieldset className="facets__facet year-chart" aria-busy={busy}>
      <legend>{label}</legend>
      <svg
        ref={svg}
        className="year-chart__bars"
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby={ids.title}
        onPointerDown={picking.down}
        onPointerMove={picking.move}
        onPointerUp={picking.up}
        onPointerCancel={picking.cancel}
      >
        <title id={ids.title}>
          {`Records per year, ${first} to ${last}; the most in ${peak.year} (${formatNumber(peak.count)}). The table below lists every year.`}
        </title>
        {bars.map(({ year, count }, index) => {
          const barHeight = count === 0 ? 0 : Math.max((count / tallest) * height, 2);
          const inRange = year >= draft.from && year <= draft.to;
          return (
            <rect
              key={year}
              className={inRange ? 'year-chart__bar year-chart__bar--in' : 'year-chart__bar'}
              x={index * slot + slot * 0.1}
              width={Math.max(slot * 0.8, 0.5)}
              y={height - barHeight}
              height={barHeight}
            />
          );
        })}
      </svg>
      <svg className="year-chart__track">
        <rect className="year-chart__rail" x="0" width="100%" y="50%" height="4" transform="translate(0 -2)" rx="2" />
        <rect
          className="year-chart__band"
          x={position(draft.from)}
          width={`${((draft.to - draft.from) / bars.length) * 100}%`}
          y="50%"
          height="4"
          transform="translate(0 -2)"
        />
        {thumb('from')}
        {thumb('to')}
      </svg>
      <div className="year-chart__axis" aria-hidden="true">
        <span>{first}</span>
        <span>{last}</span>
      </div>
      <p id={ids.hint} className="year-chart__hint">
        Drag across the bars, or click the first and the last year.
      </p>
      <p role="status" className="year-chart__status">
        {pending !== undefined ? `From ${pending}: click the last year.` : ''}
      </p>
      <YearInputs
        ids={ids}
        texts={texts}
        placeholders={{ from: first, to: last }}
        error={error}
        ranged={ranged}
        onChange={setTexts}
        onSubmit={submit}
        onClear={() => onApply({})}
      />
      <YearTable bars={bars} />
    </fieldset>
  );
}
