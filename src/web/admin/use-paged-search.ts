import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describeError } from '../api';
import { PAGE_SIZE } from '../ui/pager';

/** One page of an admin list as shown: its rows, the list's total and where the page starts. */
export interface ShownPage<Row> {
  readonly rows: Row[];
  readonly total: number;
  readonly offset: number;
}

/**
 * An admin list read page by page (`limit`/`offset`, the total in `X-Total-Count`) for the search last submitted:
 * paging keeps that search, `searchFor` starts a new one at its first page. Only the latest request's answer is
 * shown, and a page that comes back empty (rows gone meanwhile) falls back a page. Every load is a new admin read,
 * so the server audits it with its query.
 */
export function usePagedSearch<Search, Row>(path: string, initial: Search, queryOf: (search: Search) => Record<string, string>) {
  const [at, setAt] = useState({ search: initial, offset: 0 });
  const [shown, setShown] = useState<ShownPage<Row> | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const loads = useRef(0);
  useEffect(() => {
    const call = (loads.current += 1);
    setProblem(undefined);
    const query = new URLSearchParams({ ...queryOf(at.search), limit: String(PAGE_SIZE), offset: String(at.offset) });
    api.getWithHeaders<Row[]>(`${path}?${query}`).then(
      ({ data, headers }) => {
        if (call !== loads.current) return;
        if (data.length === 0 && at.offset > 0) return setAt({ ...at, offset: Math.max(0, at.offset - PAGE_SIZE) });
        setShown({ rows: data, total: Number(headers.get('x-total-count') ?? data.length), offset: at.offset });
      },
      (error: unknown) => {
        if (call === loads.current) setProblem(describeError(error));
      },
    );
  }, [at]);
  return {
    search: at.search,
    shown,
    problem,
    searchFor: (search: Search) => setAt({ search, offset: 0 }),
    goTo: (offset: number) => setAt({ ...at, offset }),
  };
}
