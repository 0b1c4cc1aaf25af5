import { ApiError, describeError } from '../api';
import type { FormErrors } from '../ui/form-errors';

/**
 * Places a refusal of the library API beside the control it concerns: the field the answer names
 * (`details[].field`, `body.` stripped; `legs.1.symbol` tries `legs.1.symbol`, then `legs.1`, then `legs`), else
 * the control `byCode` gives for its error code, else a message for the whole form. Keys are the API's field names.
 */
export function placeApiError(error: unknown, controls: ReadonlySet<string>, byCode: Readonly<Record<string, string>> = {}): FormErrors {
  if (!(error instanceof ApiError)) return { fields: {}, form: describeError(error) };
  const control = controlOf(error, controls) ?? byCode[error.code];
  if (control) return { fields: { [control]: error.message } };
  if (error.code === 'rate_limited') return { fields: {}, form: `${error.message} Wait a moment and try again.` };
  if (error.status >= 500) return { fields: {}, form: `The server could not do it (${error.status}): ${error.message} Try again in a moment.` };
  return { fields: {}, form: error.message };
}

function controlOf(error: ApiError, controls: ReadonlySet<string>): string | undefined {
  const parts = error.field?.split('.') ?? [];
  for (let length = parts.length; length > 0; length -= 1) {
    const candidate = parts.slice(0, length).join('.');
    if (controls.has(candidate)) return candidate;
  }
  return undefined;
}

/** The API said the session is gone (expired, signed out elsewhere): the caller reloads the session, which shows the sign-in prompt. */
export function isSignedOut(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
