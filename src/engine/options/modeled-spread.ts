/**
 * The modeled bid–ask spread of an option leg (DESIGN "Options strategies in backtests (modeled prices)"), the one
 * definition the options replay and paper trading's modeled quote share: spread = max(5 % of the model price,
 * $0.05), and a fill pays half of it, a bought leg above the model price, a sold leg below it (never below 0).
 */

/** The rule in words, for `pricing.spread`. */
export const SPREAD_WORDS = 'max(5 % of the model price, $0.05); a fill pays half';

/** Half the modeled spread of a leg whose model price is `model` (per share). */
export function halfSpread(model: number): number {
  return Math.max(0.05 * model, 0.05) / 2;
}

/** What buying the leg pays per share, unrounded: the model price plus half its spread. */
export function boughtPrice(model: number): number {
  return model + halfSpread(model);
}

/** What selling the leg receives per share, unrounded: the model price less half its spread, at least 0. */
export function soldPrice(model: number): number {
  return Math.max(0, model - halfSpread(model));
}

/** A bought leg's fill, per share: boughtPrice rounded up to the cent (the trader never gets the fraction). */
export function boughtFill(model: number): number {
  return centsUp(boughtPrice(model));
}

/** A sold leg's fill, per share: soldPrice rounded down to the cent. */
export function soldFill(model: number): number {
  return centsDown(soldPrice(model));
}

/** A price rounded up to the cent, ignoring a double's last-digit noise (12.3000000001 is 12.30). */
export function centsUp(price: number): number {
  return toCent(price, Math.ceil);
}

/** A price rounded down to the cent, ignoring a double's last-digit noise (12.2999999999 is 12.30). */
export function centsDown(price: number): number {
  return toCent(price, Math.floor);
}

/** A price rounded to the nearest cent. */
export function centsNearest(price: number): number {
  return toCent(price, Math.round);
}

function toCent(price: number, round: (value: number) => number): number {
  const cents = price * 100;
  const nearest = Math.round(cents);
  // + 0: never −0 (a sold worthless leg).
  return (Math.abs(cents - nearest) < 1e-6 ? nearest : round(cents)) / 100 + 0;
}
