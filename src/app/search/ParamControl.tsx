import type { Deployment, ParamDef } from '../../deployments/schema';
import { booleanChoices, integerChoices, orderChoices, sortChoices, type Choice } from './param-options';

interface ParamControlProps {
  readonly deployment: Deployment;
  readonly param: ParamDef;
  readonly value: string;
  readonly error: string | undefined;
  /** What the search asked for when the control cannot show it (an impossible date). */
  readonly rejectedValue?: string | undefined;
  readonly onChange: (value: string) => void;
  /** Values to suggest as the researcher types (an exact-match parameter's known values). */
  readonly suggestions?: readonly string[] | undefined;
}

export const controlId = (name: string) => `param-${name}`;
export const errorId = (name: string) => `param-${name}-error`;
const helpId = (name: string) => `param-${name}-help`;

/** One labelled control of the search form, chosen by the parameter's kind. */
export function ParamControl({ deployment, param, value, error, rejectedValue, onChange, suggestions }: ParamControlProps) {
  const id = controlId(param.name);
  const describedBy = [helpId(param.name), error ? errorId(param.name) : undefined].filter(Boolean).join(' ');
  const common = {
    id,
    name: param.name,
    'aria-describedby': describedBy,
    'aria-invalid': error ? (true as const) : undefined,
  };

  const select = (choices: readonly Choice[], selected = value) => (
    <select {...common} value={selected} onChange={(event) => onChange(event.target.value)}>
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  );

  let control;
  let help = param.help;
  switch (param.kind) {
    case 'date':
      control = <input {...common} type="date" value={value} onChange={(event) => onChange(event.target.value)} />;
      help = `${param.help} Sent as ${deployment.dateFormat}.`;
      break;
    case 'boolean':
      control = select(booleanChoices);
      break;
    case 'sort':
      control = select(sortChoices(deployment, value));
      break;
    case 'order':
      control = select(orderChoices);
      break;
    case 'integer':
      control = select(integerChoices(param, value), value || String(param.default));
      break;
    case 'text':
    case 'exact':
    case 'repo_id':
      control = (
        <>
          <input
            {...common}
            type="text"
            value={value}
            autoComplete="off"
            spellCheck={false}
            list={suggestions?.length ? `${id}-values` : undefined}
            onChange={(event) => onChange(event.target.value)}
          />
          {suggestions?.length ? (
            <datalist id={`${id}-values`}>
              {suggestions.map((suggestion) => (
                <option key={suggestion} value={suggestion} />
              ))}
            </datalist>
          ) : null}
        </>
      );
      break;
  }

  return (
    <div className={`field field--${param.kind}`}>
      <label htmlFor={id}>{param.label}</label>
      {control}
      <p id={helpId(param.name)} className="field__help">
        {help}
      </p>
      {error && (
        <p id={errorId(param.name)} className="field__error">
          {error}
          {rejectedValue && <span className="field__rejected">You entered {rejectedValue}.</span>}
        </p>
      )}
    </div>
  );
}
