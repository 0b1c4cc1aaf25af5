import type { AlpacaConfig } from '../platform/config.js';
import { DAY, MINUTE, type Clock } from '../platform/clock.js';
import { Forbidden, NotFound, ServiceUnavailable } from '../platform/errors.js';
import type { Bar } from './bar-series.js';
import type { ProviderPrice } from './market-data-provider.js';
import { BadGateway, GatewayTimeout } from './provider-errors.js';
import type { DataFeed } from './market-terms.js';

/** How far behind real time `delayed_sip` stays: what the provider's free plan allows on `sip`. */
export const FEED_DELAY_MS = 15 * MINUTE;
const PAGE_LIMIT = 10000;
const MAX_PAGES = 200;

export interface AlpacaDeps {
  readonly config: AlpacaConfig;
  readonly clock: Clock;
  /** Waits between rate-limited attempts; tests pass one that does not wait. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Attempts after a 429 before giving up with 503 `provider_rate_limited`. */
  readonly maxRetries?: number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Daily bars (`timeframe=1Day`, `adjustment=all`) of `symbol` from `from` (`YYYY-MM-DD`) to the end of
 * `to`, following `next_page_token` to the last page. The provider's `feed` is `sip` for both of our
 * feeds; `delayed_sip` ends no later than 15 minutes ago, `sip` asks for real time and a 403 from the
 * provider becomes our 403 `feed_not_entitled`.
 */
export async function fetchAlpacaDailyBars(deps: AlpacaDeps, symbol: string, from: string, to: string, feed: DataFeed): Promise<Bar[]> {
  const now = deps.clock.now().getTime();
  const latest = feed === 'delayed_sip' ? now - FEED_DELAY_MS : now;
  const end = new Date(Math.min(Date.parse(`${to}T23:59:59Z`), latest)).toISOString();
  // Nothing can exist yet (a tail asked for just after midnight UTC, inside the delay): do not ask.
  if (`${from}T00:00:00.000Z` > end) return [];
  const bars: Bar[] = [];
  let pageToken: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const url = new URL(`${deps.config.dataUrl}/v2/stocks/${encodeURIComponent(symbol)}/bars`);
    url.search = new URLSearchParams({
      timeframe: '1Day',
      adjustment: 'all',
      start: `${from}T00:00:00Z`,
      end,
      feed: 'sip',
      limit: String(PAGE_LIMIT),
      ...(pageToken ? { page_token: pageToken } : {}),
    }).toString();
    const body = await requestWithRetries(deps, url, feed);
    const parsed = parsePage(body);
    bars.push(...parsed.bars);
    if (parsed.nextPageToken === null) return bars;
    pageToken = parsed.nextPageToken;
  }
  throw new BadGateway('provider_bad_response', `The market-data provider kept paging past ${MAX_PAGES} pages for ${symbol}.`);
}

/**
 * The latest price of `symbol` on `delayed_sip`: the close of the newest 1-minute bar (`feed=sip`, `sort=desc`,
 * `limit=1`) in the week up to 15 minutes ago, which the free plan allows. Its time is the end of that minute, capped
 * at the end asked for (a bar of the minute the delay line falls in holds trades up to the line only).
 */
export async function fetchAlpacaLatestPrice(deps: AlpacaDeps, symbol: string): Promise<ProviderPrice> {
  const end = deps.clock.now().getTime() - FEED_DELAY_MS;
  const url = new URL(`${deps.config.dataUrl}/v2/stocks/${encodeURIComponent(symbol)}/bars`);
  url.search = new URLSearchParams({
    timeframe: '1Min',
    start: new Date(end - 7 * DAY).toISOString(),
    end: new Date(end).toISOString(),
    feed: 'sip',
    sort: 'desc',
    limit: '1',
  }).toString();
  const body = await requestWithRetries(deps, url, 'delayed_sip');
  const { bars } = (body ?? {}) as { bars?: unknown };
  const newest = Array.isArray(bars) ? (bars[0] as Record<string, unknown> | undefined) : undefined;
  if (newest === undefined) throw new NotFound('unknown_symbol', `The market-data provider has no trade of ${symbol} in the last week.`, [{ field: 'symbol', message: 'has no recent trade' }]);
  const { t, c } = newest;
  const start = typeof t === 'string' ? Date.parse(t) : Number.NaN;
  if (Number.isNaN(start) || typeof c !== 'number' || !Number.isFinite(c) || c <= 0) {
    throw new BadGateway('provider_bad_response', `The market-data provider answered in an unexpected shape: the newest minute bar of ${symbol} has no time or price.`);
  }
  return { price: c, at: new Date(Math.min(start + MINUTE, end)).toISOString() };
}

async function requestWithRetries(deps: AlpacaDeps, url: URL, feed: DataFeed): Promise<unknown> {
  const sleep = deps.sleep ?? realSleep;
  const maxRetries = deps.maxRetries ?? 3;
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { 'APCA-API-KEY-ID': deps.config.keyId, 'APCA-API-SECRET-KEY': deps.config.secretKey, accept: 'application/json' },
        signal: AbortSignal.timeout(deps.config.timeoutMs),
      });
    } catch (error) {
      throw transportError(error, deps.config.timeoutMs);
    }
    if (response.status === 429 && attempt < maxRetries) {
      await response.body?.cancel();
      await sleep(retryDelayMs(response.headers.get('retry-after'), attempt));
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw statusError(response.status, feed);
    }
    try {
      return await response.json();
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') throw transportError(error, deps.config.timeoutMs);
      throw new BadGateway('provider_bad_response', 'The market-data provider answered with a body that is not JSON.');
    }
  }
}

/** `Retry-After` in seconds (or an HTTP date), capped at 60 s; without one, 1 s, 2 s, 4 s… */
function retryDelayMs(header: string | null, attempt: number): number {
  const cap = 60_000;
  if (header !== null) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, cap);
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.min(Math.max(0, at - Date.now()), cap);
  }
  return Math.min(1000 * 2 ** attempt, cap);
}

function statusError(status: number, feed: DataFeed): Error {
  if (status === 403 && feed === 'sip') {
    return new Forbidden('feed_not_entitled', 'Real-time data (data_feed "sip") needs a subscription with the market-data provider; use "delayed_sip".');
  }
  if (status === 401) return new BadGateway('provider_auth_failed', 'The market-data provider refused our API keys (ALPACA_KEY_ID / ALPACA_SECRET_KEY).');
  if (status === 403) return new BadGateway('provider_forbidden', 'The market-data provider refused delayed data to our account.');
  if (status === 429) return new ServiceUnavailable('provider_rate_limited', 'The market-data provider is rate-limiting us; try again in a minute.');
  return new BadGateway('provider_error', `The market-data provider answered HTTP ${status}.`);
}

function transportError(error: unknown, timeoutMs: number): Error {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new GatewayTimeout('provider_timeout', `The market-data provider did not answer within ${timeoutMs} ms.`);
  }
  return new BadGateway('provider_unreachable', 'The market-data provider cannot be reached.');
}

function parsePage(body: unknown): { bars: Bar[]; nextPageToken: string | null } {
  const bad = (why: string) => new BadGateway('provider_bad_response', `The market-data provider answered in an unexpected shape: ${why}.`);
  if (typeof body !== 'object' || body === null) throw bad('not an object');
  const { bars, next_page_token: next } = body as { bars?: unknown; next_page_token?: unknown };
  if (next !== null && next !== undefined && (typeof next !== 'string' || next === '')) throw bad('next_page_token is not a string');
  if (bars !== null && bars !== undefined && !Array.isArray(bars)) throw bad('bars is not an array');
  const out: Bar[] = [];
  for (const item of (bars ?? []) as unknown[]) {
    const { t, o, h, l, c, v } = (item ?? {}) as Record<string, unknown>;
    const prices = [o, h, l, c];
    if (typeof t !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(t) || Number.isNaN(Date.parse(t))) throw bad('a bar has no timestamp t');
    if (!prices.every((p) => typeof p === 'number' && Number.isFinite(p) && p > 0)) throw bad(`the bar of ${t} has a price that is not a positive number`);
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw bad(`the bar of ${t} has no volume`);
    // Daily bars are stamped at midnight New York time (04:00 or 05:00 UTC): the UTC date is the trading day.
    out.push({ date: t.slice(0, 10), open: o as number, high: h as number, low: l as number, close: c as number, volume: v });
  }
  return { bars: out, nextPageToken: (next as string | null | undefined) ?? null };
}
