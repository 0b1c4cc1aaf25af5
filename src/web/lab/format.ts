/**
 * Every number the lab shows goes through here, so a percentage looks the same on a card, in a table and on a
 * chart axis. A null (a ratio with no denominator) is shown as an em dash.
 */
export const NONE = '—';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
const wholeMoney = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const ratio = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const days = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** A decimal fraction as a percentage: 0.1234 → "12.34%". */
export function formatPercent(value: number | null): string {
  return value === null ? NONE : percent.format(value);
}

/** A dollar amount with cents: 10234.5 → "$10,234.50". */
export function formatMoney(value: number | null): string {
  return value === null ? NONE : money.format(value);
}

/** A dollar amount in whole dollars, for chart axes. */
export function formatWholeMoney(value: number): string {
  return wholeMoney.format(value);
}

/** A unitless ratio such as Sharpe or profit factor: 1.2345 → "1.23". */
export function formatRatio(value: number | null): string {
  return value === null ? NONE : ratio.format(value);
}

/** A whole count: 5105 → "5,105". */
export function formatCount(value: number | null): string {
  return value === null ? NONE : count.format(value);
}

/** A number of calendar days: 12.345 → "12.3 days". */
export function formatDays(value: number | null): string {
  return value === null ? NONE : `${days.format(value)} ${value === 1 ? 'day' : 'days'}`;
}

/** The calendar day of an API timestamp: "2000-01-03T00:00:00.000Z" → "2000-01-03" (bars are whole UTC days). */
export function formatDay(timestamp: string): string {
  return timestamp.slice(0, 10);
}

/** Elapsed milliseconds as seconds with one decimal: 1530 → "1.5 s". */
export function formatElapsed(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

/** "positive" / "negative" for colouring a signed figure, or "" for zero and null. */
export function signClass(value: number | null): string {
  if (value === null || value === 0) return '';
  return value > 0 ? 'positive' : 'negative';
}
