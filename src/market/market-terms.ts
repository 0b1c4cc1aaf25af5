/**
 * The market's vocabulary, defined once: tickers, calendar dates, requested periods and data feeds. Every feature
 * that takes a symbol, a date or a feed from a request checks it here, so one pattern and one message serve all.
 */
import { BadRequest } from '../platform/errors.js';

/** Upper-case tickers as exchanges and data vendors write them: `SPX`, `BRK.B`, `BF-B`, `^GSPC`. */
const TICKER = /^\^?[A-Z][A-Z0-9]{0,9}([.-][A-Z0-9]{1,5})?$/;

export function isTicker(symbol: string): boolean {
  return TICKER.test(symbol);
}

/** 400 `invalid_symbol` unless `symbol` is a ticker. */
export function assertTicker(symbol: string): void {
  if (!isTicker(symbol)) {
    throw new BadRequest('invalid_symbol', `Symbol "${symbol}" is not a ticker: upper-case letters and digits, such as SPX, AAPL or BRK.B.`);
  }
}

/** A real calendar date written `YYYY-MM-DD` (so `2021-02-30` is not one). */
export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** Calendar days, both ends included, `YYYY-MM-DD`. */
export interface Period {
  readonly from: string;
  readonly to: string;
}

/** The bounds of an open-ended period: every stored bar. */
export const EARLIEST_DATE = '1900-01-01';
export const LATEST_DATE = '9999-12-31';

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/**
 * The UTC calendar days a legacy backtest request names; each bound is a `YYYY-MM-DD` date or an ISO 8601
 * timestamp. 400 `invalid_date` or `invalid_period`.
 */
export function requestedPeriod(start: string, end: string): Period {
  const from = utcDay('start_date', start);
  const to = utcDay('end_date', end);
  assertOrdered(start, end, from, to);
  return { from, to };
}

/**
 * The calendar days a library request names, each bound optional and `YYYY-MM-DD` only; a missing bound is open
 * (`EARLIEST_DATE`, `LATEST_DATE`). 400 `invalid_date` or `invalid_period`.
 */
export function optionalPeriod(start: string | undefined, end: string | undefined): Period {
  for (const [field, value] of [['start_date', start], ['end_date', end]] as const) {
    if (value !== undefined && !isIsoDate(value)) {
      throw new BadRequest('invalid_date', `${field} "${value}" is not a calendar date in YYYY-MM-DD form.`, [{ field: `body.${field}`, message: 'is not a YYYY-MM-DD date' }]);
    }
  }
  if (start !== undefined && end !== undefined) assertOrdered(start, end, start, end);
  return { from: start ?? EARLIEST_DATE, to: end ?? LATEST_DATE };
}

/** "from 2020-01-02 to 2020-12-31", "up to …", "from … on" or "stored", for messages. */
export function describePeriod(period: Period): string {
  if (period.from === EARLIEST_DATE && period.to === LATEST_DATE) return 'stored';
  if (period.from === EARLIEST_DATE) return `up to ${period.to}`;
  if (period.to === LATEST_DATE) return `from ${period.from} on`;
  return `from ${period.from} to ${period.to}`;
}

function assertOrdered(start: string, end: string, from: string, to: string): void {
  if (to < from) {
    throw new BadRequest('invalid_period', `end_date (${end}) is before start_date (${start}).`, [{ field: 'body.end_date', message: 'is before start_date' }]);
  }
}

/** The UTC calendar day of a `YYYY-MM-DD` date or an ISO 8601 timestamp given in body field `field`; 400 `invalid_date`. */
export function utcDay(field: string, text: string): string {
  if (isIsoDate(text)) return text;
  const match = TIMESTAMP.exec(text);
  if (match && isIsoDate(match[1]!)) {
    // An offset can carry a timestamp past year 9999 (`9999-12-31T23:59-23:59`), out of the date format.
    const day = new Date(Date.parse(text)).toISOString().slice(0, 10);
    if (isIsoDate(day)) return day;
  }
  const message = `${field} "${text}" is not an ISO 8601 date: use YYYY-MM-DD or a UTC timestamp such as 2020-01-31T00:00:00Z.`;
  throw new BadRequest('invalid_date', message, [{ field: `body.${field}`, message: 'is not an ISO 8601 date' }]);
}

/** Our data feeds (the contract's `data_feed`); docs/market-data.md says what each asks of the provider. */
export const DATA_FEEDS = ['delayed_sip', 'sip'] as const;
export type DataFeed = (typeof DATA_FEEDS)[number];

/** The request's feed, `delayed_sip` when left out; 400 `unknown_data_feed` for any other word. */
export function dataFeedOf(value: string | undefined): DataFeed {
  const feed = value ?? 'delayed_sip';
  if (!(DATA_FEEDS as readonly string[]).includes(feed)) {
    throw new BadRequest('unknown_data_feed', `data_feed "${feed}" is not known; use ${DATA_FEEDS.map((f) => `"${f}"`).join(' or ')}.`, [{ field: 'body.data_feed', message: 'is not a known feed' }]);
  }
  return feed as DataFeed;
}

/** The calendar day after `date` (`YYYY-MM-DD`). */
export function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
