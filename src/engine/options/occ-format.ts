/**
 * Writes OCC option symbols (the OSI format, compact form: root, YYMMDD, C or P, strike × 1000 in 8 digits), the
 * inverse of src/compliance/occ-symbol.ts's parseOccSymbol. Pure.
 */
import { EngineError } from '../engine-error.js';
import type { OptionRight } from './black-scholes.js';

/**
 * The compact OCC symbol of an option: `formatOccSymbol('SPX', '2020-03-20', 'put', 2900)` is "SPX200320P02900000".
 * The root is the underlying's symbol in capitals without what a root cannot hold (a dot, a caret, a dash), at most
 * six characters. The strike is to the tenth of a cent (0 < strike < 100,000: an underlying priced beyond that, such
 * as BRK.A, has no OCC strike, a 422 `no_occ_symbol`); the expiry in the years 1900–2099 (OCC writes two digits of
 * the year: data from the 1990s has 19xx expiries).
 */
export function formatOccSymbol(underlying: string, expiry: string, right: OptionRight, strike: number): string {
  const root = occRoot(underlying);
  const thousandths = Math.round(strike * 1000);
  if (!(thousandths > 0 && thousandths < 1e8)) {
    throw new EngineError('no_occ_symbol', `A strike of ${strike} has no OCC symbol (at most 99,999.999): a leg on ${underlying} lands beyond what listed options are struck at (a very small short delta, or an underlying priced that high).`, [
      { field: 'options_spec', message: 'puts a leg beyond the OCC strike range' },
    ]);
  }
  if (!/^(19|20)\d{2}-\d{2}-\d{2}$/.test(expiry)) throw new RangeError(`An expiry of ${expiry} has no OCC symbol.`);
  const date = expiry.slice(2, 4) + expiry.slice(5, 7) + expiry.slice(8, 10);
  return `${root}${date}${right === 'call' ? 'C' : 'P'}${String(thousandths).padStart(8, '0')}`;
}

/** The OCC root of an underlying symbol: capitals and digits only, at most six ("^GSPC" → "GSPC", "BRK.B" → "BRKB"). */
export function occRoot(underlying: string): string {
  const root = underlying.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/^[0-9]+/, '').slice(0, 6);
  if (root === '') throw new RangeError(`${underlying} makes no OCC root.`);
  return root;
}
