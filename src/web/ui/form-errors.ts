/**
 * A form's errors, keyed by the control they belong beside (each form names its own keys, usually the API's field
 * names); `form` holds what concerns no single control (rate limit, outage).
 */
export interface FormErrors {
  readonly fields: Readonly<Record<string, string>>;
  readonly form?: string;
}

export const NO_ERRORS: FormErrors = { fields: {} };

export function hasErrors(errors: FormErrors): boolean {
  return errors.form !== undefined || Object.keys(errors.fields).length > 0;
}
