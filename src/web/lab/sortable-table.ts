import { useMemo, useState } from 'preact/hooks';

export type SortDirection = 'ascending' | 'descending';

export interface SortState<K extends string> {
  readonly key: K;
  readonly direction: SortDirection;
}

type Comparable = number | string | null;

/**
 * Rows sorted by one column. Choosing the sorted column again reverses it; a new column starts ascending.
 * Nulls (a BUY's P&L) always sort last, whichever the direction. The sort is stable: ties keep time order.
 */
export function useSortedRows<Row, K extends string>(
  rows: readonly Row[],
  valueOf: (row: Row, key: K) => Comparable,
  initial: SortState<K>,
): { sorted: readonly Row[]; sort: SortState<K>; sortBy: (key: K) => void } {
  const [sort, setSort] = useState<SortState<K>>(initial);
  const sorted = useMemo(() => {
    const sign = sort.direction === 'ascending' ? 1 : -1;
    return [...rows].sort((a, b) => {
      const x = valueOf(a, sort.key);
      const y = valueOf(b, sort.key);
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      return x < y ? -sign : x > y ? sign : 0;
    });
  }, [rows, sort]);
  const sortBy = (key: K) =>
    setSort((current) => ({ key, direction: current.key === key && current.direction === 'ascending' ? 'descending' : 'ascending' }));
  return { sorted, sort, sortBy };
}
