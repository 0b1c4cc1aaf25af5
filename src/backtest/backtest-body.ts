import { fractionArray, moneyArray } from '../engine/index.js';
import { JsonBytesWriter } from './rounded-json.js';

/** The three bar-aligned arrays of a backtest body, as the run left them (unrounded). */
export interface BodySeries {
  readonly dates: readonly string[];
  readonly equity: ArrayLike<number>;
  readonly drawdowns: ArrayLike<number>;
}

/** A result body whose bar-aligned arrays are left empty, to be filled from a `BodySeries`. */
export interface WithSeries {
  dates: string[];
  equity_curve: number[];
  drawdowns: number[];
}

/**
 * The dates of recent bodies as JSON bytes, by the dates array: the market layer hands out one array per symbol,
 * bars version and period while it keeps them (SeriesSlices), and arrays are never changed once made.
 */
const datesJson = new WeakMap<readonly string[], Buffer>();

function datesJsonOf(dates: readonly string[]): Buffer {
  let json = datesJson.get(dates);
  if (json === undefined) {
    json = new JsonBytesWriter(dates.length * 13 + 2).stringArray(dates).bytes();
    datesJson.set(dates, json);
  }
  return json;
}

/** How a schema serializer writes the three bar-aligned arrays when they are empty. */
const EMPTY_SERIES = '"dates":[],"equity_curve":[],"drawdowns":[]';

/**
 * The JSON body of a backtest result (legacy or library) as UTF-8 bytes. Everything but the three bar-aligned
 * arrays is written by `bySchema` (the route's response schema, which decides the fields) from `head`, whose
 * arrays are empty; the arrays — 15,000 values for 20 years of bars — are written straight to bytes, the equity
 * rounded to the cent and the drawdowns to 8 decimals in the same loop (rounded-json.ts). The bytes are those of
 * `bySchema` of the fully shaped result (tested); if the schema ever writes the arrays elsewhere, that is what
 * is sent.
 */
export function backtestBodyBytes<T extends WithSeries>(head: T, series: BodySeries, bySchema: (result: T) => string): Buffer {
  const rest = bySchema(head);
  // Inside a JSON string every quote is escaped, so the marker can only match the fields themselves.
  const at = rest.indexOf(EMPTY_SERIES);
  if (at < 0) {
    return Buffer.from(bySchema({ ...head, dates: [...series.dates], equity_curve: moneyArray(series.equity), drawdowns: fractionArray(series.drawdowns) }));
  }
  const dates = datesJsonOf(series.dates);
  return new JsonBytesWriter(rest.length + dates.length + series.dates.length * 60)
    .text(rest.slice(0, at))
    .text('"dates":')
    .raw(dates)
    .text(',"equity_curve":')
    .roundedArray(series.equity, 'money')
    .text(',"drawdowns":')
    .roundedArray(series.drawdowns, 'fraction')
    .text(rest.slice(at + EMPTY_SERIES.length))
    .bytes();
}
