import type { Bar } from '../../src/market/bar-series.js';
import { startFakeAlpaca, type Answer, type SeenRequest } from './fake-alpaca.js';

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

/** A ticker as Yahoo's search lists it; `quoteType` EQUITY unless said. */
export interface YahooSearchHit {
  readonly symbol: string;
  readonly name: string;
  readonly quoteType?: 'EQUITY' | 'ETF' | 'INDEX' | 'MUTUALFUND' | 'OPTION' | 'FUTURE' | 'CURRENCY' | 'CRYPTOCURRENCY';
}

const TYPE_DISPLAY = { EQUITY: 'Equity', ETF: 'ETF', INDEX: 'Index', MUTUALFUND: 'Fund', OPTION: 'Option', FUTURE: 'Future', CURRENCY: 'Currency', CRYPTOCURRENCY: 'Cryptocurrency' };

/**
 * Yahoo's answer to `GET /v1/finance/search?q=…` (what yahoo-finance2's `search()` asks and checks against its
 * schema): `quotes` in Yahoo's shape, the other sections empty.
 */
export function yahooSearch(hits: readonly YahooSearchHit[]) {
  return {
    explains: [],
    count: hits.length,
    quotes: hits.map((hit, index) => {
      const quoteType = hit.quoteType ?? 'EQUITY';
      return {
        exchange: 'NMS',
        shortname: hit.name.slice(0, 20),
        quoteType,
        symbol: hit.symbol,
        index: 'quotes',
        score: 100_000 - index,
        typeDisp: TYPE_DISPLAY[quoteType],
        longname: hit.name,
        exchDisp: 'NASDAQ',
        isYahooFinance: true,
      };
    }),
    news: [],
    nav: [],
    lists: [],
    researchReports: [],
    screenerFieldResults: [],
    totalTime: 12,
    timeTakenForQuotes: 5,
    timeTakenForNews: 0,
    timeTakenForAlgowatchlist: 0,
    timeTakenForPredefinedScreener: 0,
    timeTakenForCrunchbase: 0,
    timeTakenForNav: 0,
    timeTakenForResearchReports: 0,
    timeTakenForScreenerField: 0,
    timeTakenForCulturalAssets: 0,
    timeTakenForSearchLists: 0,
  };
}

/** The path yahoo-finance2's `search()` asks. */
export const YAHOO_SEARCH_PATH = '/v1/finance/search';

/**
 * An answer for the fake that plays Yahoo for a set of tickers: the chart of each ticker in `charts` (404 for any
 * other), and a search listing those of `listed` whose ticker or name contains the query (any case).
 */
export function yahooKnowing(charts: Readonly<Record<string, readonly YahooDay[]>>, listed: readonly YahooSearchHit[], now?: string) {
  return (request: SeenRequest): Answer => {
    if (request.path === YAHOO_SEARCH_PATH) {
      const q = (request.query.q ?? '').toLowerCase();
      return { status: 200, body: yahooSearch(listed.filter((hit) => hit.symbol.toLowerCase().includes(q) || hit.name.toLowerCase().includes(q))) };
    }
    const symbol = decodeURIComponent(request.path.split('/').at(-1) ?? '');
    const days = request.path.startsWith('/v8/finance/chart/') ? charts[symbol] : undefined;
    return days === undefined ? { status: 404, body: YAHOO_NOT_FOUND } : { status: 200, body: yahooChart(symbol, days, now) };
  };
}
