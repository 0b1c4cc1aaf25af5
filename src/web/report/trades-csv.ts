/**
 * The trades of a backtest as CSV, one row per round trip as the results list them: the lab's fills paired into
 * round trips (lab/round-trips.ts), the library's trades as the answer gives them.
 */
import type { RoundTrip } from '../lab/round-trips';
import type { LibraryTrade } from '../library/types';
import { csvText } from './csv';

export function labTradesCsv(trips: readonly RoundTrip[]): string {
  return csvText(
    ['entry_date', 'entry_price', 'exit_date', 'exit_price', 'shares', 'pnl', 'return', 'commission', 'exit_reason', 'bars'],
    trips.map((trip) => [trip.entry_date, trip.entry_price, trip.exit_date, trip.exit_price, trip.shares, trip.pnl, trip.return, trip.commission, trip.exit_reason ?? 'signal', trip.bars]),
  );
}

export function libraryTradesCsv(trades: readonly LibraryTrade[]): string {
  return csvText(
    ['symbol', 'side', 'entry_date', 'entry_price', 'exit_date', 'exit_price', 'qty', 'pnl', 'return', 'commission', 'exit_reason'],
    trades.map((trade) => [
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
    ]),
  );
}
