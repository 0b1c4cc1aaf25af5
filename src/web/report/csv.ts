/**
 * CSV files built in the browser from a backtest's answer (RFC 4180: comma-separated, CRLF line ends, a header row,
 * a field quoted when it holds a comma, a quote or a line break, its quotes doubled). Numbers are written as the
 * answer gives them, dates as `YYYY-MM-DD`, so a spreadsheet reads them back exactly.
 */

export type CsvValue = string | number | null | undefined;

/** One field: empty for null, a number as JavaScript writes it, text quoted when it must be. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: the header, then a line per row, each line ended by CRLF. */
export function csvText(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

/** The daily equity: date, equity and drawdown at each close. */
export function dailyEquityCsv(series: { readonly dates: readonly string[]; readonly equity_curve: readonly number[]; readonly drawdowns: readonly number[] }): string {
  return csvText(
    ['date', 'equity', 'drawdown'],
    series.dates.map((date, index) => [date.slice(0, 10), series.equity_curve[index], series.drawdowns[index]]),
  );
}

/**
 * A file name that says what was run: `tradelab-SPX-sma-crossover-2000-01-03-to-2020-04-17-trades.csv`. Anything
 * but letters, digits, dots and dashes becomes a dash, so it is a safe name on every system.
 */
export function csvFileName(parts: { readonly what: string; readonly start: string; readonly end: string; readonly kind: string }): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '');
  return `tradelab-${safe(parts.what)}-${parts.start.slice(0, 10)}-to-${parts.end.slice(0, 10)}-${safe(parts.kind)}.csv`;
}
