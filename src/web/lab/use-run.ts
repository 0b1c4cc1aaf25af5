import { useEffect, useRef, useState } from 'preact/hooks';
import { formErrorsFromApi, NO_ERRORS, type FormErrors } from './form-errors';

export interface Run<T> {
  readonly running: boolean;
  readonly result: T | undefined;
  readonly errors: FormErrors;
  /** Sends one request, unless one is in flight; its refusal becomes `errors`, its answer `result`. */
  start(request: () => Promise<T>, sentParameters?: readonly string[]): Promise<void>;
  /** Shows errors found before sending (client-side checks). */
  refuse(errors: FormErrors): void;
}

/**
 * One request at a time, for a form whose run may take a while. The in-flight check is a ref, not the
 * `running` state, so two submits before the next render (a repeated Enter) still send one request; an
 * answer arriving after the page has gone is dropped.
 */
export function useRun<T>(): Run<T> {
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<T | undefined>(undefined);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const inFlight = useRef(false);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);

  return {
    running,
    result,
    errors,
    async start(request, sentParameters = []) {
      if (inFlight.current) return;
      inFlight.current = true;
      setErrors(NO_ERRORS);
      setRunning(true);
      try {
        const answer = await request();
        if (mounted.current) setResult(answer);
      } catch (error) {
        if (mounted.current) setErrors(formErrorsFromApi(error, sentParameters));
      } finally {
        inFlight.current = false;
        if (mounted.current) setRunning(false);
      }
    },
    refuse(found) {
      setErrors(found);
    },
  };
}
