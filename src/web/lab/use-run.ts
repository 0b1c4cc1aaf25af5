import { useEffect, useRef, useState } from 'preact/hooks';
import { formErrorsFromApi, NO_ERRORS, type FormErrors } from './form-errors';

export interface Run<T> {
  readonly running: boolean;
  /** Milliseconds since the request went out, ticking while it runs. */
  readonly elapsedMs: number;
  readonly result: T | undefined;
  readonly errors: FormErrors;
  /** Sends one request; its refusal becomes `errors`, its answer `result`. */
  start(request: () => Promise<T>, sentParameters?: readonly string[]): Promise<void>;
  /** Shows errors found before sending (client-side checks). */
  refuse(errors: FormErrors): void;
}

/** One request at a time with its elapsed time, for a form whose run may take a while. */
export function useRun<T>(): Run<T> {
  const [running, setRunning] = useState(false);
  const [elapsedMs, setElapsedMs] = useState(0);
  const [result, setResult] = useState<T | undefined>(undefined);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);

  useEffect(() => {
    if (!running) return;
    const startedAt = performance.now();
    setElapsedMs(0);
    const timer = setInterval(() => setElapsedMs(performance.now() - startedAt), 100);
    return () => clearInterval(timer);
  }, [running]);

  return {
    running,
    elapsedMs,
    result,
    errors,
    async start(request, sentParameters = []) {
      setErrors(NO_ERRORS);
      setRunning(true);
      try {
        const answer = await request();
        if (mounted.current) setResult(answer);
      } catch (error) {
        if (mounted.current) setErrors(formErrorsFromApi(error, sentParameters));
      } finally {
        if (mounted.current) setRunning(false);
      }
    },
    refuse(found) {
      setErrors(found);
    },
  };
}
