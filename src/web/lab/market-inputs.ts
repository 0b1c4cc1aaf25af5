import type { DataFeed, DataFeedEntry } from './types';

/** What the lab and the comparison both ask for: which bars, over which days, with how much cash. */
export interface MarketInputs {
  readonly symbol: string;
  readonly start_date: string;
  readonly end_date: string;
  /** As typed, so a half-typed number stays in the box. */
  readonly initial_capital: string;
  readonly data_feed: DataFeed;
}

/**
 * The demo data set is the S&P 500 as `SPX`, 2000-01-03 to 2020-04-17 (src/market/bar-store.service.ts), so
 * the whole of it is the default period. The symbol field shows each symbol's stored range but does not set the
 * period from it: a period the person chose survives a change of symbol (docs/web-app.md, "Defaults").
 */
export const DEFAULT_MARKET_INPUTS: MarketInputs = {
  symbol: 'SPX',
  start_date: '2000-01-03',
  end_date: '2020-04-17',
  initial_capital: '10000',
  data_feed: 'delayed_sip',
};

/**
 * The feed field's options: the feeds the server can serve, and the current value when it is not one of them (an
 * address naming it), so the field shows what would be sent.
 */
export function feedChoices(servable: readonly DataFeedEntry[], current: DataFeed): { value: DataFeed; label: string }[] {
  const choices = servable.map((feed) => ({ value: feed.id, label: feed.id === 'delayed_sip' ? `${feed.name} (free)` : feed.name }));
  return choices.some((choice) => choice.value === current) ? choices : [...choices, { value: current, label: `${current} (not served here)` }];
}

/** The feed field's hint: what the choice means on this server. */
export function feedHint(servable: readonly DataFeedEntry[]): string {
  return servable.length > 1
    ? 'Daily bars either way. Delayed SIP is 15 minutes behind; real time needs a subscription with the market-data provider.'
    : 'Daily bars, up to 15 minutes behind. Real time is not offered: this server has no market-data subscription.';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_CAPITAL = 1e12;

/** Client-side checks, keyed by control as in form-errors.ts; the server checks everything again. */
export function checkMarketInputs(inputs: MarketInputs): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!inputs.symbol.trim()) errors.symbol = 'Enter a ticker, such as SPX.';
  if (!DAY.test(inputs.start_date)) errors.start_date = 'Enter the first day of the period.';
  if (!DAY.test(inputs.end_date)) errors.end_date = 'Enter the last day of the period.';
  else if (DAY.test(inputs.start_date) && inputs.end_date < inputs.start_date) {
    errors.end_date = 'The end date must be on or after the start date.';
  }
  const capital = Number(inputs.initial_capital);
  if (inputs.initial_capital.trim() === '' || !Number.isFinite(capital) || capital <= 0) {
    errors.initial_capital = 'Enter a starting amount above $0.';
  } else if (capital > MAX_CAPITAL) {
    errors.initial_capital = 'Enter at most $1,000,000,000,000.';
  }
  return errors;
}

/** The request fields shared by `POST /api/backtest` and `POST /api/compare-strategies`. */
export function marketRequest(inputs: MarketInputs) {
  return {
    symbol: inputs.symbol.trim().toUpperCase(),
    start_date: inputs.start_date,
    end_date: inputs.end_date,
    initial_capital: Number(inputs.initial_capital),
    data_feed: inputs.data_feed,
  };
}
