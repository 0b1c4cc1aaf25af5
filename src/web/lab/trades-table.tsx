import { formatCount, formatDay, formatMoney, formatPercent, signClass } from '../ui/format';
import { MetricValue } from './metric-cards';
import { SortableTable, type TableColumn } from '../ui/sortable-table';
import type { BacktestTrade } from './types';

type Column = 'date' | 'type' | 'price' | 'shares' | 'value' | 'commission' | 'pnl' | 'return' | 'duration';

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
    case 'commission':
      return formatMoney(trade.commission ?? 0);
    case 'shares':
    case 'duration':
      return formatCount(trade[key]);
    case 'return':
      return formatPercent(trade.return);
  }
}

function column(key: Column, label: string, numeric: boolean): TableColumn<BacktestTrade, Column> {
  return {
    key,
    label,
    numeric,
    cell: (trade) => <MetricValue value={cell(trade, key)} />,
    sortValue: (trade) => trade[key] ?? null,
    tone: key === 'pnl' || key === 'return' ? (trade) => signClass(trade[key]) : undefined,
  };
}

const COLUMNS: readonly TableColumn<BacktestTrade, Column>[] = [
  column('date', 'Date', false),
  column('type', 'Side', false),
  column('price', 'Price', true),
  column('shares', 'Shares', true),
  column('value', 'Value', true),
  column('commission', 'Commission', true),
  column('pnl', 'P&L', true),
  column('return', 'Return', true),
  column('duration', 'Days held', true),
];

/** Every fill of a backtest (the raw buys and sells behind the round trips), sortable by each column, a page at a time. */
export function TradesTable(props: { trades: readonly BacktestTrade[]; empty: string }) {
  return (
    <SortableTable
      rows={props.trades}
      columns={COLUMNS}
      initialSort={{ key: 'date', direction: 'ascending' }}
      // A BUY and a SELL can share a day (the closing sale on the last bar), never two of one side.
      rowKey={(trade) => `${trade.date}-${trade.type}`}
      caption={(total, shown) => `Fills (${formatCount(total)}${shown < total ? `, first ${formatCount(shown)} shown` : ''})`}
      captionId="fills-caption"
      classes={{ region: 'table-scroll trades-scroll', table: 'trades-table fills-table', more: 'trades-more' }}
      rowsName="fills"
      empty={<p class="muted">{props.empty}</p>}
    />
  );
}
