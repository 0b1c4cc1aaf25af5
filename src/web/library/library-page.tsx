import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { useFocusOn } from '../auth/focus';
import { useSession } from '../auth/session';
import { Link, navigate, useLocation } from '../router';
import { Notice } from '../ui/form';
import { PAGE_SIZE, Pager, rangeText } from '../ui/pager';
import { isSignedOut, placeApiError } from './errors';
import { takeFlash } from './flash';
import { SignedInPage } from './signed-in-page';
import { StrategyItem } from './strategy-item';
import type { StrategyView } from './types';

type Message = { kind: 'success' | 'error'; text: string };

/** `/library`: the signed-in person's strategies, optionally only the active ones, 50 to a page. */
export function LibraryPage() {
  return (
    <SignedInPage title="Strategy library" signedOut="to see your strategy library.">
      {() => <StrategyList />}
    </SignedInPage>
  );
}

/** `/library?active_only=1&offset=50` → the list's filter and page (the address keeps them over a reload). */
function listQuery(query: URLSearchParams): { activeOnly: boolean; offset: number } {
  const offset = Number(query.get('offset'));
  return { activeOnly: query.get('active_only') === '1', offset: Number.isInteger(offset) && offset > 0 ? offset : 0 };
}

function listPath(activeOnly: boolean, offset: number): string {
  const query = new URLSearchParams();
  if (activeOnly) query.set('active_only', '1');
  if (offset > 0) query.set('offset', String(offset));
  const text = query.toString();
  return text ? `/library?${text}` : '/library';
}

function countText(total: number, offset: number, shown: number, activeOnly: boolean): string {
  const noun = `${activeOnly ? 'active ' : ''}${total === 1 ? 'strategy' : 'strategies'}`;
  return `${shown < total ? 'Showing ' : ''}${rangeText({ offset, shown, total })} ${noun}`;
}

function StrategyList() {
  const { reload } = useSession();
  const { activeOnly, offset } = listQuery(useLocation().query);
  const [page, setPage] = useState<{ strategies: readonly StrategyView[]; total: number } | undefined>(undefined);
  const [message, setMessage] = useState<Message | undefined>(() => {
    const flash = takeFlash();
    return flash ? { kind: 'success', text: flash } : undefined;
  });
  const messageRef = useFocusOn<HTMLDivElement>(message);

  // Only the latest load may show its answer: a slow one for a filter or page already left is dropped.
  const loads = useRef(0);
  const load = useCallback(async () => {
    const call = (loads.current += 1);
    try {
      // scope=library: the library in every mode (without it, AUTH_V1=off answers the template catalogue).
      const path = `/api/strategies?scope=library&limit=${PAGE_SIZE}&offset=${offset}${activeOnly ? '&active_only=1' : ''}`;
      const { data, headers } = await api.getWithHeaders<StrategyView[]>(path);
      if (call !== loads.current) return;
      const total = Number(headers.get('x-total-count') ?? data.length);
      // The last page emptied (its strategies deleted elsewhere, or here): show the page before it.
      if (data.length === 0 && offset > 0) return navigate(listPath(activeOnly, Math.max(0, offset - PAGE_SIZE)), { replace: true });
      setPage({ strategies: data, total });
    } catch (error) {
      if (call !== loads.current) return;
      if (isSignedOut(error)) return void reload();
      setMessage({ kind: 'error', text: `Your strategies could not be loaded: ${placeApiError(error, new Set()).form}` });
    }
  }, [activeOnly, offset, reload]);
  useEffect(() => void load(), [load]);

  return (
    <>
      <div class="library__bar">
        <Link href="/library/new" class="button">
          New strategy
        </Link>
        <label class="check">
          <input type="checkbox" checked={activeOnly} onChange={(event) => navigate(listPath(event.currentTarget.checked, 0), { replace: true })} /> Active only
        </label>
        <Link href="/compliance">Check a trade</Link>
      </div>
      {message && (
        <div ref={messageRef} tabIndex={-1}>
          <Notice kind={message.kind}>{message.text}</Notice>
        </div>
      )}
      {!page && !message && <p class="muted">Loading your strategies…</p>}
      {page && page.total === 0 && (
        <p class="muted">
          {activeOnly ? 'No active strategies. Clear “Active only” to see the inactive ones.' : 'Your library is empty. Create a strategy to backtest it and check trades against it.'}
        </p>
      )}
      {page && page.strategies.length > 0 && (
        <>
          <p class="muted" id="strategies-count">
            {countText(page.total, offset, page.strategies.length, activeOnly)}
          </p>
          <ul class="strategies" aria-label="Your strategies" aria-describedby="strategies-count">
            {page.strategies.map((strategy) => (
              <StrategyItem
                key={strategy.id}
                strategy={strategy}
                onDeleted={(name) => {
                  setMessage({ kind: 'success', text: `Deleted “${name}”.` });
                  void load();
                }}
              />
            ))}
          </ul>
          <Pager label="Pages of strategies" offset={offset} shown={page.strategies.length} total={page.total} href={(to) => listPath(activeOnly, to)} />
        </>
      )}
    </>
  );
}
