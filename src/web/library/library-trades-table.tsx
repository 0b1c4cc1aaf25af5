import { formatCount, formatMoney, formatPercent, signClass } from '../ui/format';
import { SortableTable, type TableColumn } from '../ui/sortable-table';
import type { ExitReason, LibraryTrade } from './types';

type Column = 'symbol' | 'side' | 'entry_date' | 'entry_price' | 'exit_date' | 'exit_price' | 'qty' | 'pnl' | 'return' | 'exit_reason';

const EXIT_REASONS: Readonly<Record<ExitReason, string>> = {
  stop_loss: 'Stop loss',
  trailing_stop: 'Trailing stop',
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

function column(key: Column, label: string, numeric: boolean): TableColumn<LibraryTrade, Column> {
  return {
    key,
    label,
    numeric,
    cell: (trade) => cell(trade, key),
    sortValue: (trade) => trade[key],
    tone: key === 'pnl' || key === 'return' ? (trade) => signClass(trade[key]) : undefined,
  };
}

const COLUMNS: readonly TableColumn<LibraryTrade, Column>[] = [
  column('symbol', 'Symbol', false),
  column('side', 'Side', false),
  column('entry_date', 'Entry date', false),
  column('entry_price', 'Entry price', true),
  column('exit_date', 'Exit date', false),
  column('exit_price', 'Exit price', true),
  column('qty', 'Qty', true),
  column('pnl', 'P&L', true),
  column('return', 'Return', true),
  column('exit_reason', 'Exit reason', false),
];

/** Every round trip of a library backtest, sortable by each column, shown 100 at a time (as the lab's fills). */
export function LibraryTradesTable(props: { trades: readonly LibraryTrade[] }) {
  return (
    <SortableTable
      rows={props.trades}
      columns={COLUMNS}
      initialSort={{ key: 'entry_date', direction: 'ascending' }}
      // One position per symbol at a time: symbol and entry day name a round trip.
      rowKey={(trade) => `${trade.symbol}-${trade.entry_date}`}
      caption={(total, shown) => `Trades (${formatCount(total)} round trips${shown < total ? `, first ${formatCount(shown)} shown` : ''})`}
      captionId="library-trades-caption"
      classes={{ region: 'table-scroll trades-scroll', table: 'trades-table library-trades', more: 'trades-more' }}
      rowsName="trades"
      empty={<p class="muted">No trades: the entry rule never held over this period.</p>}
    />
  );
}
