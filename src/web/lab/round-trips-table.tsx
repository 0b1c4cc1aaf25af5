import { formatCount, formatMoney, formatPercent, signClass } from '../ui/format';
import { SortableTable, type TableColumn } from '../ui/sortable-table';
import { EXIT_REASON_LABELS } from './execution-words';
import { MetricValue } from './metric-cards';
import type { RoundTrip } from './round-trips';

type Column = 'entry_date' | 'entry_price' | 'exit_date' | 'exit_price' | 'shares' | 'pnl' | 'return' | 'exit_reason' | 'bars';

function cell(trip: RoundTrip, key: Column): string {
  switch (key) {
    case 'entry_price':
    case 'exit_price':
    case 'pnl':
      return formatMoney(trip[key]);
    case 'shares':
    case 'bars':
      return formatCount(trip[key]);
    case 'return':
      return formatPercent(trip.return);
    case 'exit_reason':
      return trip.exit_reason ? EXIT_REASON_LABELS[trip.exit_reason] : 'Signal';
    default:
      return trip[key];
  }
}

function column(key: Column, label: string, numeric: boolean): TableColumn<RoundTrip, Column> {
  return {
    key,
    label,
    numeric,
    cell: (trip) => <MetricValue value={cell(trip, key)} />,
    sortValue: (trip) => (key === 'exit_reason' ? cell(trip, key) : trip[key]),
    tone: key === 'pnl' || key === 'return' ? (trip) => signClass(trip[key]) : undefined,
  };
}

const COLUMNS: readonly TableColumn<RoundTrip, Column>[] = [
  column('entry_date', 'Entry date', false),
  column('entry_price', 'Entry price', true),
  column('exit_date', 'Exit date', false),
  column('exit_price', 'Exit price', true),
  column('shares', 'Shares', true),
  column('pnl', 'P&L', true),
  column('return', 'Return', true),
  column('exit_reason', 'Exit reason', false),
  column('bars', 'Bars', true),
];

/** Every round trip of a lab backtest (a buy and the sell after it), sortable, 100 at a time, like the library's. */
export function RoundTripsTable(props: { trips: readonly RoundTrip[]; empty: string }) {
  return (
    <SortableTable
      rows={props.trips}
      columns={COLUMNS}
      initialSort={{ key: 'entry_date', direction: 'ascending' }}
      // One position at a time: the entry day names a round trip.
      rowKey={(trip) => trip.entry_date}
      caption={(total, shown) => `Trades (${formatCount(total)} round trips${shown < total ? `, first ${formatCount(shown)} shown` : ''})`}
      captionId="round-trips-caption"
      classes={{ region: 'table-scroll trades-scroll', table: 'trades-table round-trips-table', more: 'trades-more' }}
      rowsName="trades"
      empty={<p class="muted">{props.empty}</p>}
    />
  );
}
