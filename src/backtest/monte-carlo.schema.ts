import { Type, type Static } from 'typebox';
import { BacktestRequest } from './backtest.schema.js';

/** The most runs one request may ask for. */
export const MAX_RUNS = 10_000;
export const DEFAULT_RUNS = 1_000;
export const DEFAULT_SEED = 1;

const { report: _report, ...backtestFields } = BacktestRequest.properties;

export const MonteCarloRequest = Type.Object(
  {
    ...backtestFields,
    runs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_RUNS, description: `Resampled paths, 1 to ${MAX_RUNS.toLocaleString('en-US')}; default ${DEFAULT_RUNS}` })),
    seed: Type.Optional(
      Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, description: `The random stream's seed; the same request gives the same bytes. Default ${DEFAULT_SEED}` }),
    ),
    method: Type.Optional(
      Type.Union([Type.Literal('bootstrap'), Type.Literal('shuffle')], {
        description: '`bootstrap` (default): each path draws its trades with replacement; `shuffle`: each path is the trades in a random order',
      }),
    ),
  },
  { additionalProperties: false },
);
export type MonteCarloRequest = Static<typeof MonteCarloRequest>;

const Percentiles = (description: string) =>
  Type.Object({ p5: Type.Number(), p25: Type.Number(), p50: Type.Number(), p75: Type.Number(), p95: Type.Number() }, { description });
const Band = (description: string) => Type.Array(Type.Number(), { description });

export const MonteCarloResult = Type.Object(
  {
    runs: Type.Integer(),
    seed: Type.Integer(),
    method: Type.Union([Type.Literal('bootstrap'), Type.Literal('shuffle')]),
    trades: Type.Integer({ description: 'Closed trades resampled' }),
    final_equity: Percentiles('Percentiles of the paths’ final equity (linear interpolation, type 7)'),
    max_drawdown: Percentiles('Percentiles of the paths’ maximum drawdown (fractions ≤ 0)'),
    probability_of_loss: Type.Number({ description: 'Fraction of paths ending below the starting capital' }),
    bands: Type.Object(
      {
        trade_numbers: Type.Array(Type.Integer(), { description: 'Trade numbers (0 = the start) of the band points: every one up to 100 trades, else 101 spread evenly' }),
        p5: Band('5th percentile of the paths’ equity at each trade number'),
        p25: Band('25th percentile'),
        p50: Band('Median'),
        p75: Band('75th percentile'),
        p95: Band('95th percentile'),
        actual: Band('The trades in their actual order, compounded the same way'),
      },
      { description: 'Percentile bands of the equity paths (a fan chart), with the actual path' },
    ),
  },
  { description: 'Monte Carlo robustness of a backtest' },
);
