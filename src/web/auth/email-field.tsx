import { TextField } from '../ui/form';

/** The account's email address as a form field: the server's limit (254), and the browser's address autofill. */
export function EmailField(props: {
  label: string;
  value: string;
  onValue: (email: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  hint?: string;
}) {
  return (
    <TextField
      label={props.label}
      type="email"
      name="email"
      autocomplete="email"
      required
      maxLength={254}
      value={props.value}
      onInput={(event) => props.onValue(event.currentTarget.value)}
      {...(props.onBlur ? { onBlur: props.onBlur } : {})}
      {...(props.hint ? { hint: props.hint } : {})}
      error={props.error}
    />
  );
}
