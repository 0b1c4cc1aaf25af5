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
