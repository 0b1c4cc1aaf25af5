import { Type, type Static } from 'typebox';
import { BenchmarkBlock, CostsPaid, executionEchoFields, executionRequestFields, relativeFields, tradeCostFields } from './execution.schema.js';
import { Report, ReportRequestField } from './report.schema.js';

const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const Timestamp = (description: string) =>
  Type.String({ description: `${description}: ISO 8601, \`YYYY-MM-DD\` or a full UTC timestamp such as \`2020-01-31T00:00:00Z\``, maxLength: 40 });
const Ticker = Type.String({ description: 'Ticker, such as SPX', minLength: 1, maxLength: 16 });
const DataFeedField = Type.String({ description: '`delayed_sip` (default, 15 minutes behind) or `sip` (real time, needs a subscription)', maxLength: 32 });
const Capital = Type.Number({ description: 'Starting cash, > 0', exclusiveMinimum: 0, maximum: 1e12 });

export const BacktestRequest = Type.Object(
  {
    symbol: Ticker,
    strategy: Type.String({ description: 'Template id (GET /api/templates)', minLength: 1, maxLength: 64 }),
    start_date: Timestamp('First day of the period'),
    end_date: Timestamp('Last day of the period'),
    initial_capital: Capital,
    data_feed: Type.Optional(DataFeedField),
    strategy_params: Type.Optional(
      Type.Array(Type.Object({ name: Type.String({ maxLength: 64 }), value: Type.Number() }, { additionalProperties: false }), {
        maxItems: 32,
        description: 'Parameter values; omitted parameters take their default',
      }),
    ),
    ...executionRequestFields,
    ...ReportRequestField,
  },
  { additionalProperties: false },
);
export type BacktestRequest = Static<typeof BacktestRequest>;

export const CompareRequest = Type.Object(
  {
    symbol: Ticker,
    strategies: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 64, description: 'Template ids, each once; run with their defaults' }),
    start_date: Timestamp('First day of the period'),
    end_date: Timestamp('Last day of the period'),
    initial_capital: Capital,
    data_feed: Type.Optional(DataFeedField),
    ...executionRequestFields,
  },
  { additionalProperties: false },
);
export type CompareRequest = Static<typeof CompareRequest>;

/** The statistics of closed trades and drawdowns, alike in the legacy and the library results (in this order). */
export const RoundTripMetrics = {
  max_drawdown: Type.Number({ description: 'Lowest drawdown, a fraction ≤ 0' }),
  win_rate: NullableNumber('winning / closed trades; null without trades'),
  profit_factor: NullableNumber('gross profit / gross loss; null without a loss'),
  total_trades: Type.Integer(),
  winning_trades: Type.Integer(),
  losing_trades: Type.Integer(),
  avg_profit: NullableNumber('mean pnl of winning trades'),
  avg_loss: NullableNumber('mean pnl of losing trades (negative)'),
};

const Metrics = {
  total_return: Type.Number({ description: 'final / initial − 1' }),
  annualized_return: NullableNumber('(final / initial)^(365.25 / calendar days) − 1; null over less than a day'),
  sharpe_ratio: NullableNumber('mean / sample stdev of daily returns × √252; null when the stdev is 0'),
  ...RoundTripMetrics,
  avg_holding_days: NullableNumber('mean calendar days held per closed trade'),
};

const Trade = Type.Object({
  date: Type.String({ description: 'ISO 8601 UTC timestamp of the fill bar' }),
  type: Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]),
  price: Type.Number(),
  shares: Type.Integer(),
  value: Type.Number(),
  pnl: NullableNumber('null on a BUY'),
  return: NullableNumber('sell price / buy price − 1; null on a BUY'),
  duration: Type.Union([Type.Integer(), Type.Null()], { description: 'calendar days held; null on a BUY' }),
  ...tradeCostFields,
  exit_reason: Type.Optional(
    Type.Union(['signal', 'stop_loss', 'trailing_stop', 'take_profit', 'end_of_period'].map((reason) => Type.Literal(reason)), {
      description: 'Why a SELL happened (present on a SELL when the request named an execution setting)',
    }),
  ),
});

const Dates = Type.Array(Type.String(), { description: 'Bar dates, YYYY-MM-DD' });
const Series = (description: string) => Type.Array(Type.Number(), { description });

export const BacktestResult = Type.Object(
  {
    symbol: Type.String(),
    strategy_name: Type.String(),
    start_date: Type.String({ description: 'First bar used, ISO 8601 UTC timestamp' }),
    end_date: Type.String({ description: 'Last bar used, ISO 8601 UTC timestamp' }),
    initial_capital: Type.Number(),
    final_capital: Type.Number(),
    data_feed: Type.String(),
    total_return: Metrics.total_return,
    annualized_return: Metrics.annualized_return,
    max_drawdown: Metrics.max_drawdown,
    win_rate: Metrics.win_rate,
    sharpe_ratio: Metrics.sharpe_ratio,
    profit_factor: Metrics.profit_factor,
    total_trades: Metrics.total_trades,
    winning_trades: Metrics.winning_trades,
    losing_trades: Metrics.losing_trades,
    avg_profit: Metrics.avg_profit,
    avg_loss: Metrics.avg_loss,
    avg_holding_days: Metrics.avg_holding_days,
    dates: Dates,
    equity_curve: Series('Equity at each bar close, aligned with dates'),
    drawdowns: Series('Drawdown at each bar (fraction ≤ 0), aligned with dates'),
    trades: Type.Array(Trade),
    unfilled_signals: Type.Optional(
      Type.Object(
        {
          count: Type.Integer({ description: 'Entry signals that came to a fill bar' }),
          first_fill_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD of the first attempted fill (only when there are no trades)' })),
          share_price: Type.Optional(Type.Number({ description: 'The open of that bar: the price of one share, as stored (only when there are no trades)' })),
          message: Type.String(),
        },
        {
          description:
            'When there are no trades although the strategy signalled: no signal could buy one whole share; and, when the request named an execution setting, when some entry signals found too little cash or budget (count and message only)',
        },
      ),
    ),
    ...executionEchoFields,
    costs_paid: Type.Optional(CostsPaid),
    benchmark: Type.Optional(BenchmarkBlock),
    ...relativeFields,
    report: Type.Optional(Report),
  },
  { description: 'Legacy backtest result' },
);

export const ComparisonResult = Type.Object(
  {
    symbol: Type.String(),
    start_date: Type.String({ description: 'First bar used, ISO 8601 UTC timestamp' }),
    end_date: Type.String({ description: 'Last bar used, ISO 8601 UTC timestamp' }),
    initial_capital: Type.Number(),
    data_feed: Type.String(),
    dates: Dates,
    strategies: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        equity_curve: Series('Equity at each bar close, aligned with the top-level dates'),
        ...Metrics,
        costs_paid: Type.Optional(CostsPaid),
        ...relativeFields,
      }),
    ),
    ...executionEchoFields,
    benchmark: Type.Optional(BenchmarkBlock),
  },
  { description: 'Comparison result' },
);
