import { useState } from 'preact/hooks';
import { formatCount, formatMoney, formatPercent, signClass } from '../ui/format';
import { SortableTable, type TableColumn } from '../ui/sortable-table';
import { creditWords, legWords, optionsExitReasonWords } from './options-words';
import type { OptionLeg, OptionsTrade } from './types';

type Column = 'entry_date' | 'exit_date' | 'qty' | 'credit' | 'exit_price' | 'pnl' | 'return' | 'exit_reason' | 'legs';

/** One position opens at a time: its entry day names it. */
const keyOf = (trade: OptionsTrade) => `${trade.symbol}-${trade.entry_date}`;
const legsId = (trade: OptionsTrade) => `legs-${keyOf(trade)}`;

function text(trade: OptionsTrade, key: Exclude<Column, 'legs'>): string {
  switch (key) {
    case 'qty':
      return formatCount(trade.qty);
    case 'credit':
      return creditWords(trade.credit);
    case 'exit_price':
    case 'pnl':
      return formatMoney(trade[key]);
    case 'return':
      return formatPercent(trade.return);
    case 'exit_reason':
      return optionsExitReasonWords(trade.exit_reason);
    default:
      return trade[key];
  }
}

function column(key: Exclude<Column, 'legs'>, label: string, numeric: boolean): TableColumn<OptionsTrade, Column> {
  return {
    key,
    label,
    numeric,
    cell: (trade) => text(trade, key),
    sortValue: (trade) => trade[key],
    tone: key === 'pnl' || key === 'return' ? (trade) => signClass(trade[key]) : undefined,
  };
}

/** A trade's legs: the option, side and right, strike, expiry, and the modeled fills per share. */
function LegsTable(props: { trade: OptionsTrade }) {
  const { trade } = props;
  return (
    <table class="legs-table" id={legsId(trade)}>
      <caption>
        Legs of the position opened {trade.entry_date} (modeled prices per share; a contract is 100 shares)
      </caption>
      <thead>
        <tr>
          <th scope="col">Option (OCC)</th>
          <th scope="col">Leg</th>
          <th scope="col" class="num">Strike</th>
          <th scope="col">Expiry</th>
          <th scope="col" class="num">Entry</th>
          <th scope="col" class="num">Exit</th>
        </tr>
      </thead>
      <tbody>
        {trade.legs.map((leg: OptionLeg) => (
          <tr key={leg.occ_symbol}>
            <td data-label="Option (OCC)">
              <code>{leg.occ_symbol}</code>
            </td>
            <td data-label="Leg">{legWords(leg)}</td>
            <td class="num" data-label="Strike">
              {formatMoney(leg.strike)}
            </td>
            <td data-label="Expiry">{leg.expiry}</td>
            <td class="num" data-label="Entry">
              {formatMoney(leg.entry_price)}
            </td>
            <td class="num" data-label="Exit">
              {formatMoney(leg.exit_price)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The positions of an options backtest, sortable, 100 at a time: credit (per share), what closing cost, P&L after
 * commissions, the exit reason in words, and each position's legs behind its own button.
 */
export function OptionsTradesTable(props: { trades: readonly OptionsTrade[] }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (trade: OptionsTrade) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(keyOf(trade))) next.add(keyOf(trade));
      return next;
    });
  const columns: readonly TableColumn<OptionsTrade, Column>[] = [
    column('entry_date', 'Entry date', false),
    column('exit_date', 'Exit date', false),
    column('qty', 'Contracts', true),
    column('credit', 'Credit', true),
    column('exit_price', 'Exit premium', true),
    column('pnl', 'P&L', true),
    column('return', 'Return', true),
    column('exit_reason', 'Exit reason', false),
    {
      key: 'legs',
      label: 'Legs',
      numeric: false,
      sortValue: (trade) => trade.legs.length,
      cell: (trade) => {
        const shown = open.has(keyOf(trade));
        return (
          <button type="button" class="secondary legs-toggle" aria-expanded={shown} aria-controls={shown ? legsId(trade) : undefined} onClick={() => toggle(trade)}>
            {shown ? 'Hide' : 'Show'} {trade.legs.length} legs<span class="visually-hidden"> of {trade.entry_date}</span>
          </button>
        );
      },
    },
  ];
  return (
    <SortableTable
      rows={props.trades}
      columns={columns}
      initialSort={{ key: 'entry_date', direction: 'ascending' }}
      rowKey={keyOf}
      caption={(total, shown) => `Trades (${formatCount(total)} positions${shown < total ? `, first ${formatCount(shown)} shown` : ''})`}
      captionId="library-trades-caption"
      classes={{ region: 'table-scroll trades-scroll', table: 'trades-table library-trades options-trades', more: 'trades-more' }}
      rowsName="trades"
      empty={<p class="muted">No trades: no entry signal opened a position over this period (see the skipped entries above, if any).</p>}
      detail={(trade) => (open.has(keyOf(trade)) ? <LegsTable trade={trade} /> : null)}
    />
  );
}
