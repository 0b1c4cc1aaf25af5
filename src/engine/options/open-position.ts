/**
 * Opening a modeled options position on a close (docs/backtesting.md "Options backtests (modeled prices)"): the
 * expiry (expiry.ts), the legs struck on the grid from the spot and σ (structure.ts), each leg filled at its model
 * price with half its spread paid, then `credit_min_amount` and the size. Contracts = floor(budget / the maximum
 * loss per contract), the maximum loss being the structure's worst payoff at expiry less the credit (plus the debit
 * for a debit structure), × 100, plus the opening and a closing commission per contract; the budget is the cash, or
 * entry_max_position_size when smaller.
 */
import { dateOfDayNumber, type DayNumbers } from '../dates.js';
import { yearsToExpiry } from './black-scholes.js';
import { expiryDay } from './expiry.js';
import { formatOccSymbol } from './occ-format.js';
import { boundedFills, commissionCents, type OpenOptionsPosition } from './position.js';
import { cashOf, type OptionsBook } from './book.js';
import { maxLossPerShare, payoffRange, structureLegs } from './structure.js';

/** The position opened on bar t's close with volatility σ, or null (and the skip counted) when none is. */
export function openPosition(book: OptionsBook, t: number, sigma: number, days: DayNumbers): OpenOptionsPosition | null {
  const { input, strategy, settings } = book;
  const spot = input.bars.close[t]!;
  const entryDay = days.at(t);
  const expiry = expiryDay(entryDay, strategy.spec.dte);
  const market = { spot, volatility: sigma, years: yearsToExpiry(expiry - entryDay), rate: settings.rate };
  const shapes = structureLegs(strategy.type, strategy.spec, market);
  const range = payoffRange(shapes);
  const payoffBounds = { lowest: Math.round(range.lowest * 100), highest: Math.round(range.highest * 100) };
  const fills = boundedFills(shapes, market, 1, payoffBounds);
  const creditCents = -fills.netCents;
  // A credit structure must open for a credit, at least credit_min_amount a share; a debit one ignores the field.
  if (book.credit && (creditCents <= 0 || (strategy.creditMinAmount !== null && creditCents / 100 < strategy.creditMinAmount))) {
    book.skipped.credit_below_minimum++;
    return null;
  }
  const maxLossShareCents = Math.round(maxLossPerShare(shapes, creditCents / 100) * 100);
  // Two fills' commissions (the opening one and a closing one), so a loss never takes the cash below zero.
  const perContractCents = maxLossShareCents * 100 + 2 * shapes.length * settings.commissionPerContract * 100;
  const budget = Math.min(cashOf(book), strategy.maxPositionSize ?? Infinity);
  const contracts = perContractCents > 0 ? Math.floor((budget * 100) / perContractCents) : 0;
  if (!(contracts > 0)) {
    book.skipped.no_contract_affordable++;
    return null;
  }
  const commission = commissionCents(shapes.length, contracts, settings.commissionPerContract);
  book.cashChangeCents += creditCents * 100 * contracts - commission;
  book.commissionCents += commission;
  book.spreadPaid += fills.spreadPerShare * 100 * contracts;
  const expiryDate = dateOfDayNumber(expiry);
  return {
    legs: shapes.map((leg, i) => ({ ...leg, occ: formatOccSymbol(input.symbol, expiryDate, leg.right, leg.strike), entryCents: fills.cents[i]! })),
    contracts,
    expiry: expiryDate,
    expiryDay: expiry,
    entryBar: t,
    creditCents,
    entryCommissionCents: commission,
    maxLossCents: maxLossShareCents * 100 * contracts + 2 * commission,
    payoffBounds,
  };
}
