import { useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from '../auth/session';
import { NO_ERRORS, type FormErrors } from '../lab/form-errors';
import { isSignedOut } from './errors';

export interface Request<T> {
  readonly running: boolean;
  readonly result: T | undefined;
  readonly errors: FormErrors;
  /** Sends one request unless one is in flight; a refusal goes through `place` to the form's controls. */
  start(request: () => Promise<T>): Promise<void>;
  /** Shows refusals found before sending; the last result goes, as it no longer answers what the form holds. */
  refuse(errors: FormErrors): void;
  /** Forgets the last result and errors (the form now asks something else). */
  clear(): void;
}

/**
 * The lab's one-request-at-a-time run (lab/use-run.ts) for a library form: errors are placed by the page's
 * own mapping (the API's field names), and a 401 reloads the session, which shows the sign-in prompt.
 */
export function useRequest<T>(place: (error: unknown) => FormErrors): Request<T> {
  const { reload } = useSession();
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
    async start(request) {
      if (inFlight.current) return;
      inFlight.current = true;
      setErrors(NO_ERRORS);
      setRunning(true);
      try {
        const answer = await request();
        if (mounted.current) setResult(answer);
      } catch (error) {
        if (isSignedOut(error)) void reload();
        else if (mounted.current) {
          // A refused request leaves no earlier answer on screen under its error.
          setResult(undefined);
          setErrors(place(error));
        }
      } finally {
        inFlight.current = false;
        if (mounted.current) setRunning(false);
      }
    },
    refuse(found) {
      setResult(undefined);
      setErrors(found);
    },
    clear() {
      setResult(undefined);
      setErrors(NO_ERRORS);
    },
  };
}
