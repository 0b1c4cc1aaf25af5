import { Type, type Static } from 'typebox';
import { RoundTripMetrics } from './backtest.schema.js';
import { Report, ReportRequestField } from './report.schema.js';
import { BenchmarkBlock, CostsPaid, executionEchoFields, executionRequestFields, relativeFields } from './execution.schema.js';

const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const IsoDate = (description: string) => Type.String({ description: `${description}, \`YYYY-MM-DD\``, maxLength: 10 });

/** The most symbols one run may replay (each is a bar read and a rule evaluation). */
export const MAX_SYMBOLS = 20;
/** starting_capital when the request leaves it out: the paper portfolio's default cash. */
export const DEFAULT_STARTING_CAPITAL = 100_000;

export const LibraryBacktestRequest = Type.Object(
  {
    // At most 2^53 − 1, as the compliance check: a larger id is not carried exactly, and PostgreSQL's bigint refuses 1e300 (a 500).
    strategy_id: Type.Integer({ description: "One of the caller's library strategies", minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    start_date: Type.Optional(IsoDate('First day of the period (default: the first stored bar)')),
    end_date: Type.Optional(IsoDate('Last day of the period (default: the last stored bar)')),
    starting_capital: Type.Optional(
      Type.Number({ description: `Starting cash shared by every symbol, > 0 (default ${DEFAULT_STARTING_CAPITAL})`, exclusiveMinimum: 0, maximum: 1e12 }),
    ),
    symbols: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 16 }), {
        maxItems: MAX_SYMBOLS,
        description: "Tickers, each once, within the strategy's entry_symbol_allowlist (default: the allowlist's symbols)",
      }),
    ),
    ...executionRequestFields,
    ...ReportRequestField,
  },
  { additionalProperties: false },
);
export type LibraryBacktestRequest = Static<typeof LibraryBacktestRequest>;

const OptionLeg = Type.Object({
  occ_symbol: Type.String({ description: 'OCC symbol, compact form, e.g. SPX240216P02800000' }),
  right: Type.Union([Type.Literal('call'), Type.Literal('put')]),
  strike: Type.Number(),
  expiry: Type.String({ description: 'YYYY-MM-DD' }),
  side: Type.Union([Type.Literal('long'), Type.Literal('short')]),
  entry_price: Type.Number({ description: 'Fill price per share at the entry (model price ± half the modeled spread)' }),
  exit_price: Type.Number({ description: 'Fill price per share at the exit, or the intrinsic value at settlement' }),
});

const Trade = Type.Object({
  symbol: Type.String(),
  side: Type.Union([Type.Literal('long'), Type.Literal('short')]),
  entry_date: Type.String({ description: 'Fill bar, YYYY-MM-DD' }),
  entry_price: Type.Number({ description: 'Open of the fill bar (options: the net credit, or the debit, per share at the entry close)' }),
  exit_date: Type.String({ description: 'Fill bar of the exit, YYYY-MM-DD (the last bar for end_of_period)' }),
  exit_price: Type.Number({ description: 'Open of the exit bar, or the last close for end_of_period' }),
  qty: Type.Integer({ description: 'Whole shares (options: contracts)' }),
  pnl: Type.Number({ description: 'long: qty × (exit − entry); short: qty × (entry − exit)' }),
  return: Type.Number({ description: 'long: exit / entry − 1; short: (entry − exit) / entry' }),
  exit_reason: Type.Union(
    [
      Type.Literal('stop_loss'), Type.Literal('trailing_stop'), Type.Literal('profit_target'), Type.Literal('exit_rule'), Type.Literal('end_of_period'),
      Type.Literal('max_dte'), Type.Literal('expiry'),
    ],
    { description: '`max_dte` and `expiry`: options strategies only; `trailing_stop`: equity only' },
  ),
  commission: Type.Optional(Type.Number({ description: 'Both fills’ commissions, to the cent (present when the request named an execution setting)' })),
  credit: Type.Optional(Type.Number({ description: 'Options strategies: the net credit per share at the entry (negative for a debit)' })),
  legs: Type.Optional(Type.Array(OptionLeg, { description: 'Options strategies: each leg with its fills' })),
});

const Pricing = Type.Object(
  {
    model: Type.Literal('black_scholes'),
    volatility: Type.String({ description: '`realized_20d`, or the strategy’s volatility_symbol (its close / 100)' }),
    spread: Type.String({ description: 'The modeled bid–ask spread, in words' }),
    rate: Type.Number({ description: 'The risk-free rate (config OPTIONS_RISK_FREE_RATE)' }),
  },
  { description: 'Options strategies: the legs are priced by this model, not by market quotes' },
);

const SkippedEntries = Type.Object(
  {
    credit_below_minimum: Type.Integer({ description: 'Entries whose net credit was below credit_min_amount (or no credit at all)' }),
    no_contract_affordable: Type.Integer({ description: 'Entries the budget could not buy one contract of' }),
    no_volatility: Type.Integer({ description: 'Entries with no volatility to price with: before the 21st close (realized_20d) or before the volatility symbol’s first close' }),
  },
  { description: 'Options strategies: entry signals that opened nothing' },
);

const Stats = Type.Object({
  total_return: Type.Number({ description: 'final / starting − 1' }),
  annualized_return: NullableNumber('(final / starting)^(365.25 / calendar days) − 1; null over less than a day'),
  sharpe_ratio: NullableNumber('mean / sample stdev of daily portfolio returns × √252; null when the stdev is 0'),
  sortino_ratio: NullableNumber('mean / downside deviation (n − 1) of daily returns × √252; null without a losing day'),
  ...RoundTripMetrics,
  avg_holding_days: NullableNumber('mean calendar days from entry to exit'),
  exposure: NullableNumber('fraction of dates on whose close at least one position was held'),
});

export const LibraryBacktestResult = Type.Object(
  {
    strategy_id: Type.Integer(),
    start_date: Type.String({ description: 'First date of the timeline, YYYY-MM-DD' }),
    end_date: Type.String({ description: 'Last date of the timeline, YYYY-MM-DD' }),
    starting_capital: Type.Number(),
    final_capital: Type.Number(),
    symbols: Type.Array(Type.String(), { description: 'The replayed symbols, sorted' }),
    dates: Type.Array(Type.String(), { description: 'The sorted union of the symbols’ bar dates, YYYY-MM-DD' }),
    equity_curve: Type.Array(Type.Number(), { description: 'Portfolio equity at each date’s close, aligned with dates' }),
    drawdowns: Type.Array(Type.Number(), { description: 'Drawdown at each date (fraction ≤ 0), aligned with dates' }),
    trades: Type.Array(Trade, { description: 'Sorted by entry date, then symbol' }),
    stats: Stats,
    pricing: Type.Optional(Pricing),
    skipped_entries: Type.Optional(SkippedEntries),
    ...executionEchoFields,
    costs_paid: Type.Optional(CostsPaid),
    benchmark: Type.Optional(BenchmarkBlock),
    ...relativeFields,
    report: Type.Optional(Report),
  },
  { description: 'Library backtest result' },
);
