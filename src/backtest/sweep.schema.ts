import { Type, type Static } from 'typebox';
import { BacktestRequest } from './backtest.schema.js';
import { BenchmarkSummary, executionEchoFields, executionRequestFields } from './execution.schema.js';

/** A sweep's minimum of round-trip trades when the request gives none (docs/market-data.md, "Parameter sweep route"). */
export const DEFAULT_MIN_TRADES = 10;

const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const Fraction = { exclusiveMinimum: 0, exclusiveMaximum: 1 };

/**
 * One parameter's values: a range or a list. Counts, bounds and whole numbers are the engine's to check
 * (`planSweep`: 400 `invalid_grid`, the field named `grid.<parameter>`), so the schema only fixes the shapes.
 */
const GridAxis = Type.Union([
  Type.Object(
    {
      min: Type.Number({ description: 'First value' }),
      max: Type.Number({ description: 'Last value at most' }),
      step: Type.Number({ description: 'Distance between values, > 0' }),
    },
    { additionalProperties: false, description: 'min, min + step, … up to max' },
  ),
  Type.Array(Type.Number(), { maxItems: 10_000, description: 'The values, 1 to 1,000 of them, each once' }),
]);

export const SweepValidation = Type.Union(
  [
    Type.Object(
      { split_date: Type.String({ description: 'First out-of-sample day: YYYY-MM-DD or an ISO 8601 UTC timestamp', maxLength: 40 }) },
      { additionalProperties: false },
    ),
    Type.Object(
      { in_sample_fraction: Type.Number({ description: 'Share of the bars in sample, 0 < f < 1; the rest is held out', ...Fraction }) },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        walk_forward: Type.Object(
          {
            windows: Type.Integer({ minimum: 2, maximum: 50, description: 'Rolling in-sample/out-of-sample windows, 2 to 50' }),
            in_sample_fraction: Type.Number({ description: 'Share of each window in sample, 0 < f < 1', ...Fraction }),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'Optional out-of-sample check: a split by date, a split by share of bars, or a walk-forward test' },
);
export type SweepValidation = Static<typeof SweepValidation>;

export const SweepObjective = Type.Union(
  [
    Type.Literal('sharpe_ratio'),
    Type.Literal('total_return'),
    Type.Literal('annualized_return'),
    Type.Literal('profit_factor'),
    Type.Literal('max_drawdown'),
    Type.Literal('win_rate'),
  ],
  { description: 'The metric the best cell has highest (max_drawdown ≤ 0: the shallowest); null ranks below every number' },
);

export const SweepRequest = Type.Object(
  {
    symbol: BacktestRequest.properties.symbol,
    strategy: BacktestRequest.properties.strategy,
    start_date: BacktestRequest.properties.start_date,
    end_date: BacktestRequest.properties.end_date,
    initial_capital: BacktestRequest.properties.initial_capital,
    data_feed: BacktestRequest.properties.data_feed,
    grid: Type.Record(Type.String({ maxLength: 64 }), GridAxis, {
      description: 'One or two parameters of the template (GET /api/templates), each a {min, max, step} range or a list; at most 10,000 cells',
    }),
    objective: SweepObjective,
    min_trades: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100_000,
        description: `Cells with fewer round-trip trades are thin: ranked below every cell with enough, so best only when every cell is thin; default ${DEFAULT_MIN_TRADES}, 0 ranks every cell alike`,
      }),
    ),
    validation: Type.Optional(SweepValidation),
    ...executionRequestFields,
  },
  { additionalProperties: false },
);
export type SweepRequest = Static<typeof SweepRequest>;

/** A cell's metrics, fractions rounded to 8 decimals (docs/backtesting.md "Output precision"). */
const CellMetrics = {
  total_return: Type.Number({ description: 'final / initial − 1' }),
  annualized_return: NullableNumber('(final / initial)^(365.25 / calendar days) − 1; null over less than a day'),
  sharpe_ratio: NullableNumber('mean / sample stdev of daily returns × √252; null when the stdev is 0'),
  max_drawdown: Type.Number({ description: 'Lowest drawdown, a fraction ≤ 0' }),
  win_rate: NullableNumber('winning / closed trades; null without trades'),
  profit_factor: NullableNumber('gross profit / gross loss; null without a loss'),
  total_trades: Type.Integer(),
};
const Metrics = Type.Object(CellMetrics);
const Cell = Type.Object({
  params: Type.Record(Type.String(), Type.Number(), { description: 'Every parameter of the template: the grid values and the defaults' }),
  ...CellMetrics,
  thin: Type.Boolean({ description: 'Fewer round-trip trades than min_trades: ranked below every cell with enough' }),
});
/** A walk-forward window's side: its first and last bar and the chosen cell's metrics there. */
const WindowSide = Type.Object({
  start_date: Type.String({ description: 'First bar, YYYY-MM-DD' }),
  end_date: Type.String({ description: 'Last bar, YYYY-MM-DD' }),
  ...CellMetrics,
});

const SplitResult = Type.Object({
  split_date: Type.String({ description: 'First out-of-sample bar, YYYY-MM-DD' }),
  in_sample: Cell,
  out_of_sample: Metrics,
});
const WalkForwardResult = Type.Object({
  walk_forward: Type.Object({
    windows: Type.Array(
      Type.Object({
        in_sample: WindowSide,
        out_of_sample: WindowSide,
        params: Type.Record(Type.String(), Type.Number(), { description: 'The best in-sample cell’s parameters, run alone on the out-of-sample bars' }),
      }),
    ),
    dates: Type.Array(Type.String(), { description: 'The out-of-sample bar dates, window after window' }),
    equity_curve: Type.Array(Type.Number(), { description: 'The stitched out-of-sample equity, to the cent, aligned with dates' }),
    metrics: Metrics,
  }),
});

export const SweepResult = Type.Object(
  {
    symbol: Type.String(),
    strategy: Type.String(),
    start_date: Type.String({ description: 'First bar used, ISO 8601 UTC timestamp' }),
    end_date: Type.String({ description: 'Last bar used, ISO 8601 UTC timestamp' }),
    objective: Type.String(),
    min_trades: Type.Integer({ description: 'The minimum of round-trip trades a cell needs to rank (the request’s, or the default)' }),
    parameters: Type.Array(Type.String(), { description: 'The grid’s parameters in the template’s order' }),
    cells: Type.Array(Cell, { description: 'Row-major: the first parameter’s values ascending, for each the second’s; cells breaking a rule of the template are left out' }),
    skipped_cells: Type.Integer({ description: 'Grid cells left out for breaking a rule of the template (fast below slow …)' }),
    best: Cell,
    validation: Type.Optional(Type.Union([SplitResult, WalkForwardResult])),
    ...executionEchoFields,
    benchmark: Type.Optional(BenchmarkSummary),
  },
  { description: 'Parameter sweep result' },
);
export type SweepResult = Static<typeof SweepResult>;
