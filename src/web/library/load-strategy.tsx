import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { useSession } from '../auth/session';
import { Link } from '../router';
import { Notice } from '../ui/form';
import { isSignedOut, placeApiError } from './errors';
import type { StrategyView } from './types';

/** Fetches `GET /api/strategies/:id` and renders it; a missing or foreign id says so with a way back. */
export function LoadStrategy(props: { id: string; render: (strategy: StrategyView) => ComponentChildren }) {
  const { reload } = useSession();
  const [strategy, setStrategy] = useState<StrategyView | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    if (!/^[1-9]\d*$/.test(props.id)) {
      setProblem('This address names no strategy.');
      return;
    }
    api.get<StrategyView>(`/api/strategies/${props.id}`).then(
      (found) => current && setStrategy(found),
      (error: unknown) => {
        if (!current) return;
        if (isSignedOut(error)) return void reload();
        if (error instanceof ApiError && error.status === 404) setProblem(`Your library has no strategy ${props.id}: it was deleted, or the address is wrong.`);
        else setProblem(`The strategy could not be loaded: ${placeApiError(error, new Set()).form}`);
      },
    );
    return () => void (current = false);
  }, [props.id]);
  if (problem) {
    return (
      <>
        <Notice kind="error">{problem}</Notice>
        <p>
          <Link href="/library">Back to your library</Link>
        </p>
      </>
    );
  }
  if (!strategy) return <p class="muted">Loading the strategy…</p>;
  return <>{props.render(strategy)}</>;
}

