/**
 * The execution settings a backtest request may name (`costs`, `sizing`, `exits`, `benchmark`) and the fields they
 * bring to its answer, shared by POST /api/backtest, /api/compare-strategies, /api/backtest/sweep and
 * /api/backtest/run (DESIGN.md "Execution model"; docs/backtesting.md "Costs, sizing, exits and benchmark").
 */
import { Type } from 'typebox';
import { nullable } from '../strategies/strategies.schema.js';

/** The most a money setting may be: the largest capital a request may name. */
const MAX_MONEY = 1e12;
/** The most a fixed_shares order may buy. */
export const MAX_FIXED_SHARES = 1e9;

const Cost = (description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: MAX_MONEY, description: `${description}; ≥ 0, default 0` }));

export const CostsRequest = Type.Object(
  {
    commission_per_share: Cost('Dollars per share of an order'),
    commission_pct: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Fraction of a fill’s value (0.001 = 0.1 %); 0 ≤ f ≤ 1, default 0' })),
    commission_min: Cost('The least one order pays, dollars'),
    slippage_bps: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1000, description: 'Basis points off the open against the trader, never past the bar’s high or low; 0 to 1,000, default 0' }),
    ),
    commission_per_contract: Cost('Dollars per options contract (an options leg; the equity templates trade none)'),
  },
  { additionalProperties: false, description: 'Commission of an order of q shares at fill price p: max(commission_min, commission_per_share × q + commission_pct × q × p)' },
);

export const SIZING_MODES = ['all_in', 'percent_of_equity', 'fixed_amount', 'fixed_shares'] as const;

export const SizingRequest = Type.Object(
  {
    mode: Type.Union([Type.Literal('all_in'), Type.Literal('percent_of_equity'), Type.Literal('fixed_amount'), Type.Literal('fixed_shares')], {
      description: SIZING_MODES.join(', '),
    }),
    value: Type.Optional(
      Type.Number({
        description:
          'percent_of_equity: a fraction of the equity at the signal’s close, 0 < value ≤ 1 (0.25 = 25 %); fixed_amount: dollars > 0; fixed_shares: a whole number of shares ≥ 1; all_in: none',
      }),
    ),
  },
  { additionalProperties: false, description: 'How much a buy commits (default all_in: the most whole shares the cash affords, commission included)' },
);

export const ExitsRequest = Type.Object(
  {
    stop_loss_pct: Type.Optional(nullable(Type.Number({ exclusiveMinimum: -1, exclusiveMaximum: 0 }), 'Sell when a close falls this fraction below the entry fill, −1 < f < 0 (−0.1 = −10 %); null: none')),
    take_profit_pct: Type.Optional(nullable(Type.Number({ exclusiveMinimum: 0, maximum: 1000 }), 'Sell when a close rises this fraction above the entry fill, > 0 (0.2 = +20 %); null: none')),
    trailing_stop_pct: Type.Optional(
      nullable(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }), 'Sell when a close falls this fraction below the highest close since the entry, 0 < f < 1; null: none'),
    ),
  },
  { additionalProperties: false, description: 'Exits checked on every close from the entry bar’s on (stop loss, trailing stop, take profit, then the strategy’s own exit), filled at the next open' },
);

/** The four optional request fields, spread into each backtest route's request schema. */
export const executionRequestFields = {
  costs: Type.Optional(CostsRequest),
  sizing: Type.Optional(SizingRequest),
  exits: Type.Optional(ExitsRequest),
  benchmark: Type.Optional(
    Type.String({ minLength: 1, maxLength: 16, description: 'Ticker to measure the strategy against, held from the first close (default: the backtested symbol)' }),
  ),
};

const Money = (description: string) => Type.Number({ description: `${description}, to the cent` });
const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

/** The settings the run used, every field filled in. */
export const executionEchoFields = {
  costs: Type.Optional(
    Type.Object({
      commission_per_share: Type.Number(),
      commission_pct: Type.Number(),
      commission_min: Type.Number(),
      slippage_bps: Type.Number(),
      commission_per_contract: Type.Number(),
    }, { description: 'The costs used (the request’s, each left out as 0)' }),
  ),
  sizing: Type.Optional(Type.Object({ mode: Type.String(), value: Type.Optional(Type.Number()) }, { description: 'The sizing used (all_in has no value)' })),
  exits: Type.Optional(
    Type.Object({ stop_loss_pct: NullableNumber('null: none'), take_profit_pct: NullableNumber('null: none'), trailing_stop_pct: NullableNumber('null: none') }, { description: 'The exits used' }),
  ),
};

export const CostsPaid = Type.Object(
  {
    commission: Money('Σ commissions of every fill'),
    slippage: Money('Σ |fill − reference| × shares, the reference being the open (the last close for the sale at the end)'),
  },
  { description: 'What the costs took' },
);

const BenchmarkMetrics = {
  symbol: Type.String(),
  total_return: Type.Number({ description: 'final / initial − 1' }),
  annualized_return: NullableNumber('(final / initial)^(365.25 / calendar days) − 1; null over less than a day'),
  max_drawdown: Type.Number({ description: 'Lowest drawdown, a fraction ≤ 0' }),
  sharpe_ratio: NullableNumber('mean / sample stdev of daily returns × √252; null when the stdev is 0'),
};

export const BenchmarkBlock = Type.Object(
  { ...BenchmarkMetrics, equity_curve: Type.Array(Type.Number(), { description: 'The benchmark’s equity at each of the backtest’s dates, to the cent' }) },
  { description: 'The benchmark held from the first close with the same capital, fractional units, no costs; a date it lacks carries its last close' },
);

/** The sweep's benchmark: the metrics only (a sweep answers no curves). */
export const BenchmarkSummary = Type.Object(BenchmarkMetrics, { description: 'The benchmark over the sweep’s bars, held from the first close, no costs' });

/** alpha, beta and information_ratio from the daily returns of the strategy (r) and the benchmark (b). */
export const relativeFields = {
  alpha: Type.Optional(NullableNumber('(mean(r) − beta × mean(b)) × 252; null without a beta')),
  beta: Type.Optional(NullableNumber('cov(r, b) / var(b), sample; null when var(b) is 0')),
  information_ratio: Type.Optional(NullableNumber('mean(r − b) / stdev(r − b) × √252; null when the stdev is 0')),
};

/** A trade's two fields that a costed run adds. */
export const tradeCostFields = {
  commission: Type.Optional(Type.Number({ description: 'The commission of this fill, to the cent (present when the request named an execution setting)' })),
};
