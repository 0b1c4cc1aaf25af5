import { useEffect, useRef, useState } from 'preact/hooks';
import { NO_ERRORS, type FormErrors } from './form-errors';

export interface OneRequest<T> {
  readonly running: boolean;
  readonly result: T | undefined;
  readonly errors: FormErrors;
  /** The result on screen is from an earlier request: a later one was refused (`keepResultOnRefusal` only). */
  readonly stale: boolean;
  /** How many refusals have been shown: changes with each one, not when `dismiss` drops a field's error. */
  readonly refusals: number;
  /**
   * Sends one request, unless one is in flight; its answer becomes `result`. A failure goes through
   * `refusal`, whose errors become `errors`; `undefined` shows none (the failure is dealt with elsewhere).
   */
  start(request: () => Promise<T>, refusal: (error: unknown) => FormErrors | undefined): Promise<void>;
  /** Shows errors found before sending (client-side checks). */
  refuse(errors: FormErrors): void;
  /** Forgets the last result and errors (the form now asks something else). */
  clear(): void;
  /** Drops the errors of these controls (their values changed); the rest stay. */
  dismiss(keys: readonly string[]): void;
}

/**
 * One request at a time, for a form whose run may take a while. The in-flight check is a ref, not the
 * `running` state, so two submits before the next render (a repeated Enter) still send one request; an
 * answer arriving after the page has gone is dropped. `keepResultOnRefusal`: whether the last answer stays
 * on screen under the errors of a refused request or of `refuse`.
 */
export function useOneRequest<T>(options: { keepResultOnRefusal: boolean }): OneRequest<T> {
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<T | undefined>(undefined);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [stale, setStale] = useState(false);
  const [refusals, setRefusals] = useState(0);
  const inFlight = useRef(false);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  const show = (found: FormErrors) => {
    if (!options.keepResultOnRefusal) setResult(undefined);
    else setStale(true);
    setErrors(found);
    setRefusals((count) => count + 1);
  };

  return {
    running,
    result,
    errors,
    stale,
    refusals,
    async start(request, refusal) {
      if (inFlight.current) return;
      inFlight.current = true;
      setErrors(NO_ERRORS);
      setRunning(true);
      try {
        const answer = await request();
        if (mounted.current) {
          setResult(answer);
          setStale(false);
        }
      } catch (error) {
        const found = refusal(error);
        if (found && mounted.current) show(found);
      } finally {
        inFlight.current = false;
        if (mounted.current) setRunning(false);
      }
    },
    refuse: show,
    clear() {
      setResult(undefined);
      setStale(false);
      setErrors(NO_ERRORS);
    },
    dismiss(keys) {
      setErrors((current) => {
        if (!keys.some((key) => key in current.fields)) return current;
        const fields = Object.fromEntries(Object.entries(current.fields).filter(([key]) => !keys.includes(key)));
        return current.form === undefined ? { fields } : { fields, form: current.form };
      });
    },
  };
}
