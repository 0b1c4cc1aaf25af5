import type { DataFeed } from './market-terms.js';

export interface DataFeedEntry {
  readonly id: DataFeed;
  readonly name: string;
  readonly description: string;
}

const DELAYED: DataFeedEntry = {
  id: 'delayed_sip',
  name: 'Delayed SIP',
  description: 'Daily bars from stored data, and from the provider when one is configured, up to 15 minutes behind real time. Free.',
};

const REAL_TIME: DataFeedEntry = {
  id: 'sip',
  name: 'SIP real time',
  description: "Daily bars up to now from the market-data provider; needs a subscription with the provider that includes recent SIP data.",
};

/**
 * GET /api/data-feeds: the feeds this server could ever serve. Without a real-time provider (Alpaca with keys) `sip`
 * is always 403 `feed_not_entitled` (the backtest routes ask the same `realTime`), so it is not listed; with one it
 * is, as only the provider knows the subscription (its 403 is still `feed_not_entitled`).
 */
export function servableDataFeeds(realTime: boolean): readonly DataFeedEntry[] {
  return realTime ? [DELAYED, REAL_TIME] : [DELAYED];
}
