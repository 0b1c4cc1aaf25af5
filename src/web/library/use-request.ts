import { useSession } from '../auth/session';
import type { FormErrors } from '../ui/form-errors';
import { useOneRequest, type OneRequest } from '../ui/use-one-request';
import { isSignedOut } from './errors';

export interface Request<T> extends Omit<OneRequest<T>, 'start'> {
  /** Sends one request unless one is in flight; a refusal goes through `place` to the form's controls. */
  start(request: () => Promise<T>): Promise<void>;
}

/**
 * One request at a time (ui/use-one-request.ts) for a library form: errors are placed by the page's own
 * mapping (the API's field names), and a 401 reloads the session, which shows the sign-in prompt. A refused
 * request, or refusals found before sending, leave no earlier answer on screen under their errors.
 */
export function useRequest<T>(place: (error: unknown) => FormErrors): Request<T> {
  const { reload } = useSession();
  const request = useOneRequest<T>({ keepResultOnRefusal: false });
  return {
    ...request,
    start: (send) =>
      request.start(send, (error) => {
        if (!isSignedOut(error)) return place(error);
        void reload();
        return undefined;
      }),
  };
}
