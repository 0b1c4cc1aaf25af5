import type { MonthReturn, YearReturn } from './types.js';

/**
 * The return of each calendar period (month: 'YYYY-MM', year: 'YYYY', by the dates' prefix of `length`): the
 * equity at the period's last date over the equity at the previous period's last date (the initial capital for the
 * first period), − 1 (0 from an equity of 0). Consecutive periods share their boundary equity, so the returns compound to the total return.
 */
function periodReturns(dates: readonly string[], equity: ArrayLike<number>, initialCapital: number, length: number) {
  const periods: { key: string; return: number }[] = [];
  let base = initialCapital;
  for (let t = 0; t < dates.length; t++) {
    const key = dates[t]!.slice(0, length);
    const last = t === dates.length - 1 || dates[t + 1]!.slice(0, length) !== key;
    if (!last) continue;
    // From an equity of 0 (everything lost) nothing can be returned: 0, as metrics.ts's daily returns.
    periods.push({ key, return: base > 0 ? equity[t]! / base - 1 : 0 });
    base = equity[t]!;
  }
  return periods;
}

export function monthlyReturns(dates: readonly string[], equity: ArrayLike<number>, initialCapital: number): MonthReturn[] {
  return periodReturns(dates, equity, initialCapital, 7).map((p) => ({ year: Number(p.key.slice(0, 4)), month: Number(p.key.slice(5, 7)), return: p.return }));
}

export function yearlyReturns(dates: readonly string[], equity: ArrayLike<number>, initialCapital: number): YearReturn[] {
  return periodReturns(dates, equity, initialCapital, 4).map((p) => ({ year: Number(p.key), return: p.return }));
}

/** The month with the highest (`sign` 1) or lowest (−1) return; the earlier on a tie; null without months. */
export function extremeMonth(months: readonly MonthReturn[], sign: 1 | -1): MonthReturn | null {
  let best: MonthReturn | null = null;
  for (const m of months) if (best === null || sign * (m.return - best.return) > 0) best = m;
  return best;
}
