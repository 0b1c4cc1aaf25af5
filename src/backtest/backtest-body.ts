import type { LegacyBacktestResult } from './backtest-result.js';

/** How the route's schema serializer writes the three bar-aligned arrays when they are empty. */
const EMPTY_SERIES = '"dates":[],"equity_curve":[],"drawdowns":[]';

/**
 * The JSON body of a legacy backtest result. Everything but the three bar-aligned arrays is written by
 * `bySchema` (the route's response schema, which decides the fields); those arrays — 15,000 values for
 * 20 years of bars — are written by V8's native `JSON.stringify`, which builds one flat string instead
 * of one small string per element: a quarter less CPU and far less garbage per response. The output
 * is byte-identical to `bySchema(result)` (tested); if the schema ever writes the arrays elsewhere,
 * `bySchema(result)` is used as it is.
 */
export function backtestResultJson(result: LegacyBacktestResult, bySchema: (result: LegacyBacktestResult) => string): string {
  const rest = bySchema({ ...result, dates: [], equity_curve: [], drawdowns: [] });
  // Inside a JSON string every quote is escaped, so the marker can only match the fields themselves.
  const at = rest.indexOf(EMPTY_SERIES);
  if (at < 0) return bySchema(result);
  const series = `"dates":${JSON.stringify(result.dates)},"equity_curve":${JSON.stringify(result.equity_curve)},"drawdowns":${JSON.stringify(result.drawdowns)}`;
  return rest.slice(0, at) + series + rest.slice(at + EMPTY_SERIES.length);
}
