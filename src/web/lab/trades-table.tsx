import { useEffect, useRef, useState } from 'preact/hooks';
import { formatCount, formatDay, formatMoney, formatPercent, signClass } from './format';
import { MetricValue } from './metric-cards';
import { useSortedRows } from './sortable-table';
import type { BacktestTrade } from './types';

type Column = 'date' | 'type' | 'price' | 'shares' | 'value' | 'pnl' | 'return' | 'duration';

const COLUMNS: readonly { key: Column; label: string; numeric: boolean }[] = [
  { key: 'date', label: 'Date', numeric: false },
  { key: 'type', label: 'Side', numeric: false },
  { key: 'price', label: 'Price', numeric: true },
  { key: 'shares', label: 'Shares', numeric: true },
  { key: 'value', label: 'Value', numeric: true },
  { key: 'pnl', label: 'P&L', numeric: true },
  { key: 'return', label: 'Return', numeric: true },
  { key: 'duration', label: 'Days held', numeric: true },
];

function cell(trade: BacktestTrade, key: Column): string {
  switch (key) {
    case 'date':
      return formatDay(trade.date);
    case 'type':
      return trade.type === 'BUY' ? 'Buy' : 'Sell';
    case 'price':
    case 'value':
    case 'pnl':
      return formatMoney(trade[key]);
    case 'shares':
    case 'duration':
      return formatCount(trade[key]);
    case 'return':
      return formatPercent(trade.return);
  }
}

/**
 * Rows rendered at first and added by each "show more". A busy template makes thousands of fills, and
 * rendering them all made every run and every re-sort take about a second (docs/web-app.md).
 */
export const TRADES_PAGE = 100;

/** Every fill of a backtest, sortable by each column with buttons in the headers, shown a page at a time. */
export function TradesTable(props: { trades: readonly BacktestTrade[] }) {
  const { sorted, sort, sortBy } = useSortedRows<BacktestTrade, Column>(props.trades, (trade, key) => trade[key], {
    key: 'date',
    direction: 'ascending',
  });
  // How many are shown, for which trades: a new result starts again at one page, in the same render.
  const [page, setPage] = useState({ trades: props.trades, shown: TRADES_PAGE });
  const shown = page.trades === props.trades ? page.shown : TRADES_PAGE;
  const region = useRef<HTMLDivElement>(null);
  const focusTable = useRef(false);
  // The button leaves with the last page; focus then goes to the table instead of being dropped on <body>.
  useEffect(() => {
    if (focusTable.current) region.current?.focus();
    focusTable.current = false;
  }, [shown]);

  if (props.trades.length === 0) return <p class="muted">No trades: the strategy never entered over this period.</p>;
  const visible = sorted.slice(0, shown);
  const hidden = sorted.length - visible.length;
  return (
    <>
      {/* Focusable so that a keyboard user can scroll the table sideways on a narrow screen. */}
      <div ref={region} class="table-scroll trades-scroll" role="region" aria-labelledby="trades-caption" tabIndex={0}>
        <table class="trades-table">
          <caption id="trades-caption">
            Trades ({formatCount(props.trades.length)} fills{hidden > 0 ? `, first ${formatCount(visible.length)} shown` : ''}), sorted by{' '}
            {COLUMNS.find((column) => column.key === sort.key)!.label.toLowerCase()}, {sort.direction}
          </caption>
          <thead>
            <tr>
              {COLUMNS.map((column) => (
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
            {visible.map((trade) => (
              // A BUY and a SELL can share a day (the closing sale on the last bar), never two of one side.
              <tr key={`${trade.date}-${trade.type}`}>
                {COLUMNS.map((column) => (
                  <td key={column.key} class={`${column.numeric ? 'num' : ''} ${column.key === 'pnl' || column.key === 'return' ? signClass(trade[column.key]) : ''}`}>
                    <MetricValue value={cell(trade, column.key)} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {hidden > 0 && (
        <p class="trades-more">
          <button
            type="button"
            onClick={(event) => {
              focusTable.current = hidden <= TRADES_PAGE && document.activeElement === event.currentTarget;
              setPage({ trades: props.trades, shown: shown + TRADES_PAGE });
            }}
          >
            Show {formatCount(Math.min(TRADES_PAGE, hidden))} more trades
          </button>{' '}
          <span class="muted">({formatCount(hidden)} not shown)</span>
        </p>
      )}
    </>
  );
}
