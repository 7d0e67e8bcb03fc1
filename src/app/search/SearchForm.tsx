import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { validateCriteria } from '../../client/criteria-schema';
import { queryString } from '../../client/urls';
import type { Deployment } from '../../deployments/schema';
import { criteriaFromFormState, formStateFromEntries, unreadableDates, type FormState } from './form-state';
import { controlId, errorId, ParamControl } from './ParamControl';
import type { Entries } from '../navigation/query-params';
import { QuerySyntaxHelp } from './QuerySyntaxHelp';
import { mainParam } from './form-params';
import { isPlainQuery, loadSearchBoxReader } from './use-search-box';
import { openQuoteNotice } from './open-quote';
import { typeAheadFacetOf } from '../../deployments/facets';
import type { Completion } from '../../formats/complete-response';
import type { CompletionSource } from '../ui/TypeAhead';
import { TypeAheadInput } from '../ui/TypeAheadInput';

interface SearchFormProps {
  readonly deployment: Deployment;
  readonly entries: Entries;
  /** Problems the server reported (400), by parameter name. */
  readonly serverErrors: Readonly<Record<string, string>>;
  /** Whether the user last left the advanced panel open, remembered across searches. */
  readonly prefersAdvanced: boolean;
  readonly onPrefersAdvancedChange: (open: boolean) => void;
  /** Known values of exact-match parameters, by parameter name. */
  readonly suggestions?: Readonly<Record<string, readonly string[]>>;
  /** The server takes the extension parameters, so the box's `type:` becomes `product_type`. */
  readonly extensions: boolean;
  /** Where type-ahead values come from (a server with the `/complete` extension); none without. */
  readonly completion?: CompletionSource | undefined;
}

/**
 * The search form, generated from the deployment's parameter table. It is remounted for
 * every URL, so its values always start from what the URL says.
 */
export function SearchForm({
  deployment,
  entries,
  serverErrors,
  prefersAdvanced,
  onPrefersAdvancedChange,
  suggestions = {},
  extensions,
  completion,
}: SearchFormProps) {
  const navigate = useNavigate();
  const [state, setState] = useState<FormState>(() => formStateFromEntries(deployment, entries));
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const [focusTarget, setFocusTarget] = useState<string>();
  const [toggled, setToggled] = useState<boolean>();

  const main = mainParam(deployment);
  const advanced = useMemo(() => deployment.params.filter((param) => param.advanced), [deployment]);
  // Results first: the active filters show as chips above the results, so the panel opens
  // only on demand (or to show a problem) and closes once its criteria are applied.
  const open = toggled ?? prefersAdvanced;
  const errorFor = (name: string) => clientErrors[name] ?? (edited.has(name) ? undefined : serverErrors[name]);
  // A date input cannot hold a date that does not exist (02/30/2024), so it shows empty;
  // beside the server's complaint, say what the search asked for.
  const rejectedDates = useMemo(() => unreadableDates(deployment, entries), [deployment, entries]);
  // The search as run (the URL's box), not the text being edited: the notice says what was searched.
  const searched = main ? entries.find(([name]) => name === main.name)?.[1] : undefined;
  const quoteNotice = searched === undefined ? undefined : openQuoteNotice(searched);
  const rejectedValue = (name: string) =>
    !clientErrors[name] && !edited.has(name) && serverErrors[name] ? rejectedDates[name] : undefined;

  // A server complaint about an advanced field must be visible, so open the panel.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a new server answer opens the panel once; derived in render, it could not be closed again.
    if (advanced.some((param) => serverErrors[param.name])) setToggled(true);
  }, [advanced, serverErrors]);

  // Focus moves to the first invalid field once the panel holding it is open.
  useEffect(() => {
    if (focusTarget) document.getElementById(controlId(focusTarget))?.focus();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the request is spent once the DOM that shows the field has focused it.
    setFocusTarget(undefined);
  }, [focusTarget]);

  function update(name: string, value: string) {
    setState((previous) => ({ ...previous, [name]: value }));
    setEdited((previous) => new Set(previous).add(name));
    setClientErrors(({ [name]: _removed, ...rest }) => rest);
  }

  /** A type-ahead value chosen in a field: the search runs with it selected (as ticking it in the facet), the text typed for it gone. */
  function choose(name: string, chosen: Completion) {
    const criteria = criteriaFromFormState(deployment, { ...state, [name]: '' });
    const formNames = new Set(deployment.params.map((param) => param.name));
    const kept = entries.filter(([entry]) => !formNames.has(entry) && !(entry in chosen.params) && entry !== 'page');
    onPrefersAdvancedChange(false);
    void navigate(`/${deployment.slug}${queryString([...Object.entries(criteria), ...kept, ...Object.entries(chosen.params)])}`);
  }
  const fieldLabel = (field: string) => deployment.facets.find((facet) => facet.name === field)?.label ?? field;

  function typeAheadOf(name: string) {
    const facet = typeAheadFacetOf(deployment, name);
    return completion && facet
      ? { source: completion, field: facet.name, onChoose: (chosen: Completion) => choose(name, chosen) }
      : undefined;
  }

  function clearAll() {
    setState({});
    setClientErrors({});
    // A cleared field no longer holds the value the server complained about.
    setEdited(new Set(deployment.params.map((param) => param.name)));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const criteria = criteriaFromFormState(deployment, state);
    const problems = { ...incompleteDates(event.currentTarget, deployment), ...validateCriteria(deployment, criteria) };
    const invalid = deployment.params.find((param) => problems[param.name]);
    if (invalid) {
      setClientErrors(problems);
      if (invalid.advanced) setToggled(true);
      setFocusTarget(invalid.name);
      return;
    }
    // Parameters the form has no control for (a facet's extension parameter) stay in the search.
    const formNames = new Set(deployment.params.map((param) => param.name));
    const kept = entries.filter(([name]) => !formNames.has(name));
    const submitted = [...Object.entries(criteria), ...kept];
    const text = main ? criteria[main.name] : undefined;
    const box =
      text === undefined || isPlainQuery(text)
        ? ({ kind: 'as-is' } as const)
        : (await loadSearchBoxReader())(deployment, submitted, extensions);
    if (box.kind === 'problem' && main) {
      setClientErrors({ [main.name]: box.message });
      setFocusTarget(main.name);
      return;
    }
    setClientErrors({});
    onPrefersAdvancedChange(false);
    void navigate(`/${deployment.slug}${queryString(box.kind === 'fielded' ? box.entries : submitted)}`);
  }

  return (
    <form
      className="search-form"
      role="search"
      aria-label={`Search ${deployment.name}`}
      noValidate
      onSubmit={(event) => void onSubmit(event)}
    >
      {main && (
        <div className="search-form__main">
          <label htmlFor={controlId(main.name)} className="search-form__label">
            {main.label}
          </label>
          <div className="search-form__row">
            <TypeAheadInput
              id={controlId(main.name)}
              name={main.name}
              type="search"
              source={completion}
              fields={[]}
              label="Suggestions"
              fieldLabel={fieldLabel}
              onChoose={(chosen) => choose(main.name, chosen)}
              value={state[main.name] ?? ''}
              onChange={(value) => update(main.name, value)}
              aria-describedby={
                [errorFor(main.name) ? errorId(main.name) : undefined, quoteNotice ? quoteNoticeId : undefined].filter(Boolean).join(' ') ||
                undefined
              }
              aria-invalid={errorFor(main.name) ? true : undefined}
              enterKeyHint="search"
            />
            <button type="submit" className="button button--primary">
              Search
            </button>
          </div>
          {errorFor(main.name) && (
            <p id={errorId(main.name)} className="field__error">
              {errorFor(main.name)}
            </p>
          )}
          {quoteNotice && (
            <p id={quoteNoticeId} className="field__help">
              {quoteNotice}
            </p>
          )}
        </div>
      )}
      <div className="search-form__tools">
        <button
          type="button"
          className="button button--quiet"
          aria-expanded={open}
          aria-controls="advanced-panel"
          onClick={() => {
            setToggled(!open);
            onPrefersAdvancedChange(!open);
          }}
        >
          Advanced search
        </button>
        <QuerySyntaxHelp deployment={deployment} extensions={extensions} />
      </div>
      <div id="advanced-panel" className="advanced" hidden={!open}>
        <fieldset className="advanced__fields">
          <legend>Advanced criteria for {deployment.name}</legend>
          {advanced.map((param) => (
            <ParamControl
              key={param.name}
              deployment={deployment}
              param={param}
              value={state[param.name] ?? ''}
              error={errorFor(param.name)}
              rejectedValue={rejectedValue(param.name)}
              onChange={(value) => update(param.name, value)}
              suggestions={suggestions[param.name]}
              typeAhead={typeAheadOf(param.name)}
            />
          ))}
        </fieldset>
        <div className="advanced__actions">
          {/* Not also named "Search": one button of that name keeps the form's purpose unambiguous. */}
          <button type="submit" className="button button--primary">
            Apply criteria
          </button>
          <button type="button" className="button button--quiet" onClick={clearAll}>
            Clear all criteria
          </button>
        </div>
      </div>
    </form>
  );
}

const quoteNoticeId = 'search-quote-notice';

/**
 * A date input holding a half-typed date reports an empty value; without this check the
 * criterion would silently vanish from the search.
 */
function incompleteDates(form: HTMLFormElement, deployment: Deployment): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const param of deployment.params) {
    if (param.kind !== 'date') continue;
    const input = form.elements.namedItem(param.name);
    if (input instanceof HTMLInputElement && input.validity.badInput) problems[param.name] = `${param.label}: enter a complete date.`;
  }
  return problems;
}
