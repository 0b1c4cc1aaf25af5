/** The `report` of a backtest answer (DESIGN.md "The backtest report and Monte Carlo"; docs/backtesting.md "The backtest report"). */
import { Type } from 'typebox';

const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const Fraction = (description: string) => Type.Number({ description });

const Month = Type.Object({
  year: Type.Integer(),
  month: Type.Integer({ description: '1–12' }),
  return: Fraction('Month-end equity / previous month-end equity − 1 (the first month over the starting capital)'),
});

export const ReportRequestField = {
  report: Type.Optional(Type.Boolean({ description: 'Add the `report` (monthly and yearly returns, worst drawdowns, rolling figures, trade-return histogram …) to the answer; default false' })),
};

export const Report = Type.Object(
  {
    monthly_returns: Type.Array(Month, { description: 'Compound to the total return' }),
    yearly_returns: Type.Array(Type.Object({ year: Type.Integer(), return: Fraction('Year-end equity / previous year-end equity − 1') })),
    worst_drawdowns: Type.Array(
      Type.Object({
        start: Type.String({ description: 'The last date at the peak, YYYY-MM-DD' }),
        trough: Type.String({ description: 'The first date at the low, YYYY-MM-DD' }),
        end: Type.Union([Type.String(), Type.Null()], { description: 'The first date back at the peak, YYYY-MM-DD; null if not recovered' }),
        depth: Fraction('trough equity / peak equity − 1, ≤ 0'),
        days: Type.Integer({ description: 'Calendar days from start to end, or to the last date' }),
      }),
      { description: 'The five deepest non-overlapping periods under water, deepest first' },
    ),
    rolling: Type.Object({
      window_days: Type.Integer({ description: 'Daily returns per window (126, about six months)' }),
      dates: Type.Array(Type.String(), { description: 'The last date of each window, YYYY-MM-DD' }),
      sharpe: Type.Array(Type.Union([Type.Number(), Type.Null()]), { description: 'Sharpe ratio of each window, as sharpe_ratio' }),
      volatility: Type.Array(Type.Union([Type.Number(), Type.Null()]), { description: 'Sample standard deviation of the window’s daily returns × √252' }),
    }),
    trade_returns: Type.Object({
      bins: Type.Array(Type.Object({ from: Type.Number({ description: 'Inclusive' }), to: Type.Number({ description: 'Exclusive' }), count: Type.Integer() }), {
        description: 'Histogram of closed trades’ returns: width the first of 0.1 %, 0.2 %, 0.5 %, 1 %, … giving at most 20 bins, edges on multiples of it',
      }),
    }),
    time_in_market: NullableNumber('Fraction of dates on whose close a position was open'),
    best_month: Type.Union([Month, Type.Null()]),
    worst_month: Type.Union([Month, Type.Null()]),
    longest_losing_streak: Type.Integer({ description: 'Most consecutive closed trades with a return < 0, in order of exit date' }),
  },
  { description: 'Present when the request had `report: true`' },
);
