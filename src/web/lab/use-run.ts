import { useOneRequest } from '../ui/use-one-request';
import { formErrorsFromApi, type FormErrors } from './form-errors';

export interface Run<T> {
  readonly running: boolean;
  readonly result: T | undefined;
  readonly errors: FormErrors;
  /** The result on screen is from an earlier run: a later one was refused. */
  readonly stale: boolean;
  /** Changes with each refusal shown (focus then goes to the first invalid control). */
  readonly refusals: number;
  /** Sends one request, unless one is in flight; its refusal becomes `errors`, its answer `result`. */
  start(request: () => Promise<T>, sentParameters?: readonly string[]): Promise<void>;
  /** As `start`, with the page's own placing of a refusal on its form (the Optimize form's grid and validation). */
  startWith(request: () => Promise<T>, refusal: (error: unknown) => FormErrors): Promise<void>;
  /** Shows errors found before sending (client-side checks). */
  refuse(errors: FormErrors): void;
  /** Drops the errors of these controls: their values changed. */
  dismiss(keys: readonly string[]): void;
}

/**
 * One lab run at a time (ui/use-one-request.ts). A refusal is placed on the form by the API's field names
 * and the template parameters sent; the last result stays on screen under it, marked `stale`.
 */
export function useRun<T>(): Run<T> {
  const request = useOneRequest<T>({ keepResultOnRefusal: true });
  return {
    running: request.running,
    result: request.result,
    errors: request.errors,
    stale: request.stale,
    refusals: request.refusals,
    start: (send, sentParameters = []) => request.start(send, (error) => formErrorsFromApi(error, sentParameters)),
    startWith: (send, refusal) => request.start(send, refusal),
    refuse: request.refuse,
    dismiss: request.dismiss,
  };
}
