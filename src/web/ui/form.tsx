import type { ComponentChildren, InputHTMLAttributes, PartialInputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';

/**
 * A labelled form control with its hint and error beside it. The error is tied to the control with
 * `aria-describedby` and `aria-invalid`, so a screen reader reads it on focus.
 */
export function Field(props: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ComponentChildren;
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class={props.error ? 'field field--invalid' : 'field'}>
      <label for={id}>{props.label}</label>
      {props.children({ id, describedBy, invalid: Boolean(props.error) })}
      {props.hint && (
        <p class="field__hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="field__error" id={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A text-like input inside a `Field`. */
export function TextField(
  props: { label: string; error?: string | undefined; hint?: string } & Omit<PartialInputHTMLAttributes<HTMLInputElement>, 'label' | 'role'>,
) {
  const { label, error, hint, ...input } = props;
  return (
    <Field label={label} error={error} {...(hint ? { hint } : {})}>
      {({ id, describedBy, invalid }) => <input id={id} aria-describedby={describedBy} aria-invalid={invalid} {...(input as InputHTMLAttributes)} />}
    </Field>
  );
}

/** A message about the whole form or page (not one field): announced when it appears. */
export function Notice(props: { kind: 'error' | 'info' | 'success'; children: ComponentChildren }) {
  return (
    <div class={`notice notice--${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

/** One entry of a `SelectField`: the option's value and its text. */
export interface Choice<V extends string> {
  readonly value: V;
  readonly label: string;
}

/** A `<select>` inside a `Field`, one option per choice. */
export function SelectField<V extends string>(props: {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: string | undefined;
  value: V;
  choices: readonly Choice<V>[];
  onChange: (value: V) => void;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          name={props.name}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          value={props.value}
          onChange={(event) => props.onChange(event.currentTarget.value as V)}
        >
          {props.choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A ticker, or tickers separated by commas: typed in capitals, without autocomplete or spellcheck. */
export function TickerField(props: { label: string; name: string; hint: string; value: string; error: string | undefined; onValue: (typed: string) => void }) {
  return (
    <TextField
      label={props.label}
      name={props.name}
      autoCapitalize="characters"
      autoComplete="off"
      spellcheck={false}
      hint={props.hint}
      value={props.value}
      error={props.error}
      onInput={(event) => props.onValue(event.currentTarget.value.toUpperCase())}
    />
  );
}

/** The keys of a form's inputs that hold text. */
export type TextKey<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

/**
 * Ties controls to a form's inputs by key: `text('qty')` is a text input's `name`, `value`, `error` and the
 * `onInput` that stores what was typed; `select('side')` the same for a `SelectField`, with its `onChange`.
 */
export function formInputs<T>(inputs: T, errors: Readonly<Record<string, string>>, set: <K extends keyof T>(key: K, next: T[K]) => void) {
  return {
    text: (key: TextKey<T>) => ({
      name: key,
      value: inputs[key] as string,
      error: errors[key],
      onInput: (event: { currentTarget: HTMLInputElement }) => set(key, event.currentTarget.value as T[TextKey<T>]),
    }),
    select: <K extends keyof T & string>(key: K) => ({
      name: key,
      value: inputs[key],
      error: errors[key],
      onChange: (next: T[K]) => set(key, next),
    }),
  };
}
