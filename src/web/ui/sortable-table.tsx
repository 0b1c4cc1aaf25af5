import { Fragment, type ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { formatCount } from './format';

export type SortDirection = 'ascending' | 'descending';

export interface SortState<K extends string> {
  readonly key: K;
  readonly direction: SortDirection;
}

export type Comparable = number | string | null;

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

/**
 * Rows rendered at first and added by each "show more". A busy template makes thousands of fills, and
 * rendering them all made every run and every re-sort take about a second (docs/web-app.md).
 */
export const TABLE_PAGE = 100;

/** One column of a sortable table: its header, how a row shows in it and what it sorts by. */
export interface TableColumn<Row, K extends string> {
  readonly key: K;
  readonly label: string;
  readonly numeric: boolean;
  readonly cell: (row: Row) => ComponentChildren;
  readonly sortValue: (row: Row) => Comparable;
  /** An extra class for the cell (a gain or a loss). */
  readonly tone?: (row: Row) => string;
}

export interface SortableTableProps<Row, K extends string> {
  readonly rows: readonly Row[];
  readonly columns: readonly TableColumn<Row, K>[];
  readonly initialSort: SortState<K>;
  /** Unique among the rows. */
  readonly rowKey: (row: Row) => string;
  /** The caption before its ", sorted by …", from the count of rows and of those shown: "Trades (250 fills, first 100 shown)". */
  readonly caption: (total: number, shown: number) => string;
  readonly captionId: string;
  /** Classes of the scrolling region, the table and the "show more" paragraph. */
  readonly classes: { readonly region: string; readonly table: string; readonly more: string };
  /** What the rows are, in "Show 100 more trades". */
  readonly rowsName: string;
  /** Shown instead of the table when there are no rows. */
  readonly empty: ComponentChildren;
  /** Shown in a row of its own under a row, across every column (a trade's legs, when opened); null: nothing. */
  readonly detail?: (row: Row) => ComponentChildren | null;
}

/** Rows sortable by each column with buttons in the headers, shown a page (100 rows) at a time. */
export function SortableTable<Row, K extends string>(props: SortableTableProps<Row, K>) {
  const { columns, rows } = props;
  const { sorted, sort, sortBy } = useSortedRows<Row, K>(rows, (row, key) => columns.find((column) => column.key === key)!.sortValue(row), props.initialSort);
  // How many are shown, for which rows: a new result starts again at one page, in the same render.
  const [page, setPage] = useState({ rows, shown: TABLE_PAGE });
  const shown = page.rows === rows ? page.shown : TABLE_PAGE;
  const region = useRef<HTMLDivElement>(null);
  const focusTable = useRef(false);
  // The button leaves with the last page; focus then goes to the table instead of being dropped on <body>.
  useEffect(() => {
    if (focusTable.current) region.current?.focus();
    focusTable.current = false;
  }, [shown]);

  if (rows.length === 0) return <>{props.empty}</>;
  const visible = sorted.slice(0, shown);
  const hidden = sorted.length - visible.length;
  return (
    <>
      {/* Focusable so that a keyboard user can scroll the table sideways on a narrow screen. */}
      <div ref={region} class={props.classes.region} role="region" aria-labelledby={props.captionId} tabIndex={0}>
        <table class={props.classes.table}>
          <caption id={props.captionId}>
            {props.caption(rows.length, visible.length)}, sorted by {columns.find((column) => column.key === sort.key)!.label.toLowerCase()}, {sort.direction}
          </caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.key} scope="col" class={column.numeric ? 'num' : ''} aria-sort={sort.key === column.key ? sort.direction : undefined}>
                  <button type="button" class="sort-button" onClick={() => sortBy(column.key)}>
                    {column.label}
                    <span class="sort-button__arrow" aria-hidden="true">
                      {sort.key !== column.key ? '↕' : sort.direction === 'ascending' ? '▲' : '▼'}
                    </span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {visible.map((row) => {
              const detail = props.detail?.(row) ?? null;
              return (
                <Fragment key={props.rowKey(row)}>
                  <tr>
                    {columns.map((column) => (
                      // The label names the figure where a narrow screen lays a row out as a card (styles.css).
                      <td key={column.key} class={`${column.numeric ? 'num' : ''} ${column.tone?.(row) ?? ''}`} data-label={column.label}>
                        {column.cell(row)}
                      </td>
                    ))}
                  </tr>
                  {detail !== null && (
                    <tr class="detail-row">
                      <td colSpan={columns.length}>{detail}</td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      {hidden > 0 && (
        <p class={props.classes.more}>
          <button
            type="button"
            onClick={(event) => {
              focusTable.current = hidden <= TABLE_PAGE && document.activeElement === event.currentTarget;
              setPage({ rows, shown: shown + TABLE_PAGE });
            }}
          >
            Show {formatCount(Math.min(TABLE_PAGE, hidden))} more {props.rowsName}
          </button>{' '}
          <span class="muted">({formatCount(hidden)} not shown)</span>
        </p>
      )}
    </>
  );
}
