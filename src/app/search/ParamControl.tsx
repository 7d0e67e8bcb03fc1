import type { ReactNode } from 'react';
import type { Deployment, ParamDef, ParamKind } from '../../deployments/schema';
import type { Completion } from '../../formats/complete-response';
import type { CompletionSource } from '../ui/TypeAhead';
import { TypeAheadInput } from '../ui/TypeAheadInput';
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
  /** Type-ahead from the server, where a facet's values complete this parameter (FacetDef `typeAhead`). */
  readonly typeAhead?: TypeAheadOf | undefined;
}

/** A field's type-ahead: whose values, from where, and what choosing one does. */
export interface TypeAheadOf {
  readonly source: CompletionSource;
  readonly field: string;
  readonly onChoose: (completion: Completion) => void;
}

export const controlId = (name: string) => `param-${name}`;
export const errorId = (name: string) => `param-${name}-error`;
const helpId = (name: string) => `param-${name}-help`;

interface CommonAttributes {
  readonly id: string;
  readonly name: string;
  readonly 'aria-describedby': string;
  readonly 'aria-invalid': true | undefined;
}

interface ControlProps<P extends ParamDef> {
  readonly deployment: Deployment;
  readonly param: P;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly common: CommonAttributes;
  readonly suggestions?: readonly string[] | undefined;
  readonly typeAhead?: TypeAheadOf | undefined;
}

/** How the form shows one kind of parameter. */
interface KindControl<P extends ParamDef> {
  readonly render: (props: ControlProps<P>) => ReactNode;
  /** Help beyond the table's, where the control needs it. */
  readonly help?: (deployment: Deployment, param: P) => string;
}

function TextInput({ param, value, onChange, common, suggestions, typeAhead }: ControlProps<ParamDef>) {
  if (typeAhead)
    return (
      <TypeAheadInput
        {...common}
        type="text"
        spellCheck={false}
        source={typeAhead.source}
        fields={[typeAhead.field]}
        label={`${param.label} suggestions`}
        value={value}
        onChange={onChange}
        onChoose={typeAhead.onChoose}
      />
    );
  const listId = suggestions?.length ? `${common.id}-values` : undefined;
  return (
    <>
      <input
        {...common}
        type="text"
        value={value}
        autoComplete="off"
        spellCheck={false}
        list={listId}
        onChange={(event) => onChange(event.target.value)}
      />
      {listId && (
        <datalist id={listId}>
          {suggestions!.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
      )}
    </>
  );
}

function Select({
  choices,
  value,
  onChange,
  common,
}: {
  choices: readonly Choice[];
  value: string;
  onChange: (value: string) => void;
  common: CommonAttributes;
}) {
  return (
    <select {...common} value={value} onChange={(event) => onChange(event.target.value)}>
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}

/** One entry per parameter kind of the deployment table. */
const controls: { readonly [K in ParamKind]: KindControl<Extract<ParamDef, { kind: K }>> } = {
  text: { render: TextInput },
  exact: { render: TextInput },
  repo_id: { render: TextInput },
  date: {
    render: ({ value, onChange, common }) => (
      <input {...common} type="date" value={value} onChange={(event) => onChange(event.target.value)} />
    ),
    help: (deployment, param) => `${param.help} Sent as ${deployment.dateFormat}.`,
  },
  boolean: { render: (props) => <Select {...props} choices={booleanChoices} /> },
  sort: { render: (props) => <Select {...props} choices={sortChoices(props.deployment, props.value)} /> },
  order: { render: (props) => <Select {...props} choices={orderChoices} /> },
  group: { render: (props) => <Select {...props} choices={props.param.values.map((value) => ({ value, label: value }))} /> },
  integer: {
    render: (props) => (
      <Select {...props} choices={integerChoices(props.param, props.value)} value={props.value || String(props.param.default)} />
    ),
  },
};

/** One labelled control of the search form, chosen by the parameter's kind. */
export function ParamControl({ deployment, param, value, error, rejectedValue, onChange, suggestions, typeAhead }: ParamControlProps) {
  const id = controlId(param.name);
  const describedBy = [helpId(param.name), error ? errorId(param.name) : undefined].filter(Boolean).join(' ');
  const common = {
    id,
    name: param.name,
    'aria-describedby': describedBy,
    'aria-invalid': error ? (true as const) : undefined,
  };

  const control = controls[param.kind] as unknown as KindControl<ParamDef>;
  const help = control.help?.(deployment, param) ?? param.help;

  return (
    <div className={`field field--${param.kind}`}>
      <label htmlFor={id}>{param.label}</label>
      {control.render({ deployment, param, value, onChange, common, suggestions, typeAhead })}
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
