/**
 * The trades of a backtest as CSV, one row per round trip as the results list them: the lab's fills paired into
 * round trips (lab/round-trips.ts), the library's trades as the answer gives them, an options position as one row
 * with its net credit and its legs in one column (docs/web-app.md "Exports").
 */
import type { RoundTrip } from '../lab/round-trips';
import type { LibraryTrade, OptionsTrade } from '../library/types';
import { csvText, type CsvValue } from './csv';

export function labTradesCsv(trips: readonly RoundTrip[]): string {
  return csvText(
    ['entry_date', 'entry_price', 'exit_date', 'exit_price', 'shares', 'pnl', 'return', 'commission', 'exit_reason', 'bars'],
    trips.map((trip) => [trip.entry_date, trip.entry_price, trip.exit_date, trip.exit_price, trip.shares, trip.pnl, trip.return, trip.commission, trip.exit_reason ?? 'signal', trip.bars]),
  );
}

const LIBRARY_COLUMNS = ['symbol', 'side', 'entry_date', 'entry_price', 'exit_date', 'exit_price', 'qty', 'pnl', 'return', 'commission', 'exit_reason'];

function libraryRow(trade: LibraryTrade | OptionsTrade): CsvValue[] {
  return [
    trade.symbol,
    trade.side,
    trade.entry_date.slice(0, 10),
    trade.entry_price,
    trade.exit_date.slice(0, 10),
    trade.exit_price,
    trade.qty,
    trade.pnl,
    trade.return,
    trade.commission,
    trade.exit_reason,
  ];
}

export function libraryTradesCsv(trades: readonly LibraryTrade[]): string {
  return csvText(LIBRARY_COLUMNS, trades.map(libraryRow));
}

/**
 * An options replay's positions, one row each: the library's columns, then `credit` (net per share, negative for a
 * debit) and `legs`: each leg as `side right strike expiry occ_symbol entry_price exit_price`, legs joined by "; ".
 */
export function optionsTradesCsv(trades: readonly OptionsTrade[]): string {
  return csvText(
    [...LIBRARY_COLUMNS, 'credit', 'legs'],
    trades.map((trade) => [
      ...libraryRow(trade),
      trade.credit,
      trade.legs.map((leg) => `${leg.side} ${leg.right} ${leg.strike} ${leg.expiry} ${leg.occ_symbol} ${leg.entry_price} ${leg.exit_price}`).join('; '),
    ]),
  );
}
