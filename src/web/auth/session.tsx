import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import type { Static } from 'typebox';
import { api, ApiError } from '../api';
import type { SessionView as SessionViewSchema } from '../../auth/auth.schema';
import { StepUpKeeper } from './step-up';

/** GET /api/auth/session: the server's own schema, so the two cannot drift apart (a type-only import). */
export type SessionView = Static<typeof SessionViewSchema>;

interface SessionState {
  /** undefined while the first check runs; null when signed out. */
  readonly session: SessionView | null | undefined;
  readonly reload: () => Promise<SessionView | null>;
  readonly signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionState>({
  session: undefined,
  reload: async () => null,
  signOut: async () => undefined,
});

export function SessionProvider(props: { children: ComponentChildren }) {
  const [session, setSession] = useState<SessionView | null | undefined>(undefined);
  const reload = useCallback(async () => {
    try {
      // 204 (no body) when signed out: no 401 for the browser to log on every visit.
      const view = (await api.get<SessionView | undefined>('/api/auth/session?optional=1')) ?? null;
      setSession(view);
      return view;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      setSession(null);
      return null;
    }
  }, []);
  const signOut = useCallback(async () => {
    await api.post('/api/auth/logout');
    setSession(null);
  }, []);
  const expired = useCallback(() => setSession(null), []);
  useEffect(() => {
    reload().catch(() => setSession(null));
  }, [reload]);
  return (
    <SessionContext.Provider value={{ session, reload, signOut }}>
      {props.children}
      {session && <StepUpKeeper key={session.user_id} session={session} onSignedOut={expired} />}
    </SessionContext.Provider>
  );
}

export function useSession(): SessionState {
  return useContext(SessionContext);
}
