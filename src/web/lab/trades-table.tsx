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

/** Every fill of a backtest, sortable by each column with buttons in the headers. */
export function TradesTable(props: { trades: readonly BacktestTrade[] }) {
  const { sorted, sort, sortBy } = useSortedRows<BacktestTrade, Column>(props.trades, (trade, key) => trade[key], {
    key: 'date',
    direction: 'ascending',
  });
  if (props.trades.length === 0) return <p class="muted">No trades: the strategy never entered over this period.</p>;
  return (
    // Focusable so that a keyboard user can scroll the table sideways on a narrow screen.
    <div class="table-scroll trades-scroll" role="region" aria-labelledby="trades-caption" tabIndex={0}>
      <table class="trades-table">
        <caption id="trades-caption">
          Trades ({formatCount(props.trades.length)} fills), sorted by {COLUMNS.find((column) => column.key === sort.key)!.label.toLowerCase()},{' '}
          {sort.direction}
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
          {sorted.map((trade) => (
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
  );
}
