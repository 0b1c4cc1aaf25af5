import type { Bar } from '../../src/market/bar-series.js';
import { startFakeAlpaca } from './fake-alpaca.js';

/**
 * A local HTTP server standing in for Yahoo Finance's `GET /v8/finance/chart/{symbol}`: the same answer-what-the-test-
 * says server as the Alpaca fake; `yahooChart` and `YAHOO_NOT_FOUND` are what Yahoo answers.
 */
export const startFakeYahoo = startFakeAlpaca;

/** A stored bar as Yahoo answers it, with its adjusted close. */
export interface YahooDay extends Bar {
  /** Yahoo's close adjusted for later splits and dividends; the close itself when left out. */
  readonly adjclose?: number;
}

/** New York in winter: Yahoo stamps a daily bar at the session's opening, 09:30 EST = 14:30 UTC. */
const GMT_OFFSET = -18000;
const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The chart meta's latest price (`regularMarketPrice`) and its time (`regularMarketTime`), when not the last day's close at `now`. */
export interface YahooLatest {
  readonly price: number;
  readonly at: string;
}

/**
 * Yahoo's chart answer for daily bars of `symbol` (`{chart: {result: [{meta, timestamp, indicators}], error: null}}`),
 * with `now` setting the current session in `meta` (its regular hours 09:30 to 16:00 New York time) and `latest` the
 * meta's latest price.
 */
export function yahooChart(symbol: string, days: readonly YahooDay[], now = '2026-01-05T15:00:00Z', latest?: YahooLatest) {
  const today = now.slice(0, 10);
  const session = (from: string, to: string) => ({ timezone: 'EST', start: epoch(`${today}T${from}Z`), end: epoch(`${today}T${to}Z`), gmtoffset: GMT_OFFSET });
  return {
    chart: {
      result: [
        {
          meta: {
            currency: 'USD',
            symbol,
            exchangeName: 'NMS',
            fullExchangeName: 'NasdaqGS',
            instrumentType: 'EQUITY',
            firstTradeDate: epoch('1980-12-12T14:30:00Z'),
            regularMarketTime: epoch(latest?.at ?? now),
            hasPrePostMarketData: true,
            gmtoffset: GMT_OFFSET,
            timezone: 'EST',
            exchangeTimezoneName: 'America/New_York',
            regularMarketPrice: latest?.price ?? days.at(-1)?.close ?? 1,
            priceHint: 2,
            currentTradingPeriod: { pre: session('09:00:00', '14:30:00'), regular: session('14:30:00', '21:00:00'), post: session('21:00:00', '23:59:00') },
            dataGranularity: '1d',
            range: '',
            validRanges: ['1d', '5d', '1mo', '3mo', '6mo', '1y', '2y', '5y', '10y', 'ytd', 'max'],
          },
          timestamp: days.map((day) => epoch(`${day.date}T14:30:00Z`)),
          indicators: {
            quote: [
              {
                open: days.map((day) => day.open),
                high: days.map((day) => day.high),
                low: days.map((day) => day.low),
                close: days.map((day) => day.close),
                volume: days.map((day) => day.volume),
              },
            ],
            adjclose: [{ adjclose: days.map((day) => day.adjclose ?? day.close) }],
          },
        },
      ],
      error: null,
    },
  };
}

/** A day whose open is close − 1, high close + 1, low close − 2. */
export function yahooDay(date: string, close: number, adjclose?: number): YahooDay {
  return { date, open: close - 1, high: close + 1, low: close - 2, close, volume: 1_000_000, ...(adjclose === undefined ? {} : { adjclose }) };
}

/** What Yahoo answers, with HTTP 404, for a ticker it does not know. */
export const YAHOO_NOT_FOUND = { chart: { result: null, error: { code: 'Not Found', description: 'No data found, symbol may be delisted' } } };
