import { useEffect, useRef, useState } from 'preact/hooks';
import { formatCount, formatMoney, formatPercent, signClass } from '../lab/format';
import { useSortedRows } from '../lab/sortable-table';
import { TRADES_PAGE } from '../lab/trades-table';
import type { ExitReason, LibraryTrade } from './types';

type Column = 'symbol' | 'side' | 'entry_date' | 'entry_price' | 'exit_date' | 'exit_price' | 'qty' | 'pnl' | 'return' | 'exit_reason';

const COLUMNS: readonly { key: Column; label: string; numeric: boolean }[] = [
  { key: 'symbol', label: 'Symbol', numeric: false },
  { key: 'side', label: 'Side', numeric: false },
  { key: 'entry_date', label: 'Entry date', numeric: false },
  { key: 'entry_price', label: 'Entry price', numeric: true },
  { key: 'exit_date', label: 'Exit date', numeric: false },
  { key: 'exit_price', label: 'Exit price', numeric: true },
  { key: 'qty', label: 'Qty', numeric: true },
  { key: 'pnl', label: 'P&L', numeric: true },
  { key: 'return', label: 'Return', numeric: true },
  { key: 'exit_reason', label: 'Exit reason', numeric: false },
];

const EXIT_REASONS: Readonly<Record<ExitReason, string>> = {
  stop_loss: 'Stop loss',
  profit_target: 'Profit target',
  exit_rule: 'Exit rule',
  end_of_period: 'End of period',
};

function cell(trade: LibraryTrade, key: Column): string {
  switch (key) {
    case 'side':
      return trade.side === 'long' ? 'Long' : 'Short';
    case 'entry_price':
    case 'exit_price':
    case 'pnl':
      return formatMoney(trade[key]);
    case 'qty':
      return formatCount(trade.qty);
    case 'return':
      return formatPercent(trade.return);
    case 'exit_reason':
      return EXIT_REASONS[trade.exit_reason] ?? trade.exit_reason;
    default:
      return trade[key];
  }
}

/** Every round trip of a library backtest, sortable by each column, shown 100 at a time (as the lab's fills). */
export function LibraryTradesTable(props: { trades: readonly LibraryTrade[] }) {
  const { sorted, sort, sortBy } = useSortedRows<LibraryTrade, Column>(props.trades, (trade, key) => trade[key], { key: 'entry_date', direction: 'ascending' });
  const [page, setPage] = useState({ trades: props.trades, shown: TRADES_PAGE });
  const shown = page.trades === props.trades ? page.shown : TRADES_PAGE;
  const region = useRef<HTMLDivElement>(null);
  const focusTable = useRef(false);
  useEffect(() => {
    if (focusTable.current) region.current?.focus();
    focusTable.current = false;
  }, [shown]);

  if (props.trades.length === 0) return <p class="muted">No trades: the entry rule never held over this period.</p>;
  const visible = sorted.slice(0, shown);
  const hidden = sorted.length - visible.length;
  return (
    <>
      <div ref={region} class="table-scroll trades-scroll" role="region" aria-labelledby="library-trades-caption" tabIndex={0}>
        <table class="trades-table library-trades">
          <caption id="library-trades-caption">
            Trades ({formatCount(props.trades.length)} round trips{hidden > 0 ? `, first ${formatCount(visible.length)} shown` : ''}), sorted by{' '}
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
              // One position per symbol at a time: symbol and entry day name a round trip.
              <tr key={`${trade.symbol}-${trade.entry_date}`}>
                {COLUMNS.map((column) => (
                  <td key={column.key} class={`${column.numeric ? 'num' : ''} ${column.key === 'pnl' || column.key === 'return' ? signClass(trade[column.key]) : ''}`}>
                    {cell(trade, column.key)}
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
