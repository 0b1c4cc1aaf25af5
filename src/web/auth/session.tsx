import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import type { Static } from 'typebox';
import { api, ApiError } from '../api';
import type { SessionView as SessionViewSchema } from '../../auth/auth.schema';
import type { ServerConfig } from '../../auth/auth-mode.routes';
import { StepUpKeeper } from './step-up';

/** GET /api/auth/session: the server's own schema, so the two cannot drift apart (a type-only import). */
export type SessionView = Static<typeof SessionViewSchema>;
/** The server's AUTH_V1 (GET /api/config). `off`: no accounts and no sessions; the pages act for the local operator. */
export type AuthMode = Static<typeof ServerConfig>['auth_v1'];

interface SessionState {
  /** undefined while the first check runs; null when signed out (always, under AUTH_V1=off). */
  readonly session: SessionView | null | undefined;
  /** undefined while asking; null when the server did not say (the request failed): the app behaves as with accounts. */
  readonly authMode: AuthMode | null | undefined;
  readonly reload: () => Promise<SessionView | null>;
  readonly signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionState>({
  session: undefined,
  authMode: undefined,
  reload: async () => null,
  signOut: async () => undefined,
});

export function SessionProvider(props: { children: ComponentChildren }) {
  const [session, setSession] = useState<SessionView | null | undefined>(undefined);
  const [authMode, setAuthMode] = useState<AuthMode | null | undefined>(undefined);
  // Under AUTH_V1=off /api/auth/session is a 404 like every account route: there is no session to ask for.
  const singleOperator = useRef(false);
  const reload = useCallback(async () => {
    if (singleOperator.current) {
      setSession(null);
      return null;
    }
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
    api
      .get<Static<typeof ServerConfig>>('/api/config')
      .then(
        (config) => {
          singleOperator.current = config.auth_v1 === 'off';
          setAuthMode(config.auth_v1);
        },
        () => setAuthMode(null),
      )
      .then(reload)
      .catch(() => setSession(null));
  }, [reload]);
  return (
    <SessionContext.Provider value={{ session, authMode, reload, signOut }}>
      {props.children}
      {session && <StepUpKeeper key={session.user_id} session={session} onSignedOut={expired} />}
    </SessionContext.Provider>
  );
}

export function useSession(): SessionState {
  return useContext(SessionContext);
}
