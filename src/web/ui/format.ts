/**
 * Every number the lab shows goes through here, so a percentage looks the same on a card, in a table and on a
 * chart axis. A null (a ratio with no denominator) is shown as an em dash, and so is NaN or ±Infinity, which
 * the API promises never to send (docs/backtesting.md) but which would otherwise show as "NaN%" or "∞".
 */
export const NONE = '—';

// `signDisplay: 'negative'`: a loss that rounds to nothing shows "0.00%", not "-0.00%".
const signed = { signDisplay: 'negative' } as const;
const money = new Intl.NumberFormat('en-US', { ...signed, style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
const wholeMoney = new Intl.NumberFormat('en-US', { ...signed, style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat('en-US', { ...signed, style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const ratio = new Intl.NumberFormat('en-US', { ...signed, minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = new Intl.NumberFormat('en-US', { ...signed, maximumFractionDigits: 0 });
const days = new Intl.NumberFormat('en-US', { ...signed, maximumFractionDigits: 1 });

function shown(format: Intl.NumberFormat, value: number | null): string {
  return value === null || !Number.isFinite(value) ? NONE : format.format(value);
}

/** A decimal fraction as a percentage: 0.1234 → "12.34%". */
export function formatPercent(value: number | null): string {
  return shown(percent, value);
}

/** A dollar amount with cents: 10234.5 → "$10,234.50". */
export function formatMoney(value: number | null): string {
  return shown(money, value);
}

/** A dollar amount in whole dollars, for chart axes. */
export function formatWholeMoney(value: number): string {
  return shown(wholeMoney, value);
}

/** A unitless ratio such as Sharpe or profit factor: 1.2345 → "1.23". */
export function formatRatio(value: number | null): string {
  return shown(ratio, value);
}

/** A whole count: 5105 → "5,105". */
export function formatCount(value: number | null): string {
  return shown(count, value);
}

/** A number of calendar days: 12.345 → "12.3 days". */
export function formatDays(value: number | null): string {
  const text = shown(days, value);
  // By the figure shown: 1.04 reads "1 day", not "1 days".
  return text === NONE ? NONE : `${text} ${text === '1' ? 'day' : 'days'}`;
}

/** The calendar day of an API timestamp: "2000-01-03T00:00:00.000Z" → "2000-01-03" (bars are whole UTC days). */
export function formatDay(timestamp: string): string {
  return timestamp.slice(0, 10);
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** An API timestamp as a date and time in the browser's time zone: "Apr 20, 2020, 9:30 AM"; unreadable text as is. */
export function formatDateTime(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : dateTime.format(date);
}

/** Elapsed milliseconds as seconds with one decimal: 1530 → "1.5 s". */
export function formatElapsed(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

/** "positive" / "negative" for colouring a signed figure, or "" for zero, null and what is not finite. */
export function signClass(value: number | null): string {
  if (value === null || value === 0 || !Number.isFinite(value)) return '';
  return value > 0 ? 'positive' : 'negative';
}
