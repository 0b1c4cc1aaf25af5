import { useMemo } from 'preact/hooks';
import { MetricCardList, type Metric } from '../lab/metric-cards';
import { SeriesChart, type ChartLine } from '../lab/series-chart';
import { formatCount, formatPercent, formatRatio, signClass } from '../ui/format';
import { DrawdownsTable } from './drawdowns-table';
import { MonthlyReturnsTable, YearlyReturnsTable } from './monthly-table';
import type { BacktestReport } from './report-types';
import { presentPoints } from './report-series';
import { monthText, streakText } from './report-words';
import { TradeHistogram } from './trade-histogram';

const SHARPE_COLOUR = '#1f5fbf';
const VOLATILITY_COLOUR = '#7a4fb3';

function headline(report: BacktestReport): Metric[] {
  return [
    { label: 'Time in market', value: formatPercent(report.time_in_market), explanation: 'Share of the days that closed with a position held.' },
    { label: 'Best month', value: monthText(report.best_month), tone: signClass(report.best_month?.return ?? null), explanation: 'The calendar month with the highest return.' },
    { label: 'Worst month', value: monthText(report.worst_month), tone: signClass(report.worst_month?.return ?? null), explanation: 'The calendar month with the lowest return.' },
    { label: 'Longest losing streak', value: streakText(report.longest_losing_streak), explanation: 'Most round trips in a row that lost money.' },
  ];
}

/**
 * A backtest's report (DESIGN "The backtest report and Monte Carlo"): the headline figures, returns by month and
 * year, the worst drawdowns, the rolling 6-month Sharpe ratio and volatility, and the trades' returns.
 */
export function ReportView(props: { report: BacktestReport }) {
  const { report } = props;
  const months = Math.round(report.rolling.window_days / 21);
  const sharpe = useMemo(() => presentPoints(report.rolling.dates, report.rolling.sharpe), [report]);
  const volatility = useMemo(() => presentPoints(report.rolling.dates, report.rolling.volatility), [report]);
  const sharpeLines = useMemo<ChartLine[]>(() => [{ name: 'Rolling Sharpe', color: SHARPE_COLOUR, values: sharpe.values }], [sharpe]);
  const volatilityLines = useMemo<ChartLine[]>(() => [{ name: 'Rolling volatility', color: VOLATILITY_COLOUR, values: volatility.values }], [volatility]);
  return (
    <div class="report">
      <MetricCardList metrics={headline(report)} />
      <section class="report__section" aria-labelledby="report-monthly">
        <h3 id="report-monthly">Returns by month</h3>
        <MonthlyReturnsTable monthly={report.monthly_returns} yearly={report.yearly_returns} />
      </section>
      <div class="report__pair print-break">
        <section class="report__section" aria-labelledby="report-yearly">
          <h3 id="report-yearly">Returns by year</h3>
          <YearlyReturnsTable yearly={report.yearly_returns} />
        </section>
        <section class="report__section" aria-labelledby="report-drawdowns">
          <h3 id="report-drawdowns">Worst drawdowns</h3>
          <DrawdownsTable drawdowns={report.worst_drawdowns} />
        </section>
      </div>
      <section class="report__section print-break" aria-labelledby="report-rolling">
        <h3 id="report-rolling">Rolling {months}-month figures</h3>
        {sharpe.dates.length === 0 && volatility.dates.length === 0 ? (
          <p class="muted">The period is shorter than one window of {formatCount(report.rolling.window_days)} trading days.</p>
        ) : (
          <div class="chart-pair">
            <SeriesChart
              class="chart--rolling"
              caption={`Rolling ${months}-month Sharpe ratio`}
              summary={`Sharpe ratio of the last ${formatCount(report.rolling.window_days)} daily returns at each close (annualized, risk-free rate 0), from ${formatRatio(Math.min(...sharpe.values))} to ${formatRatio(Math.max(...sharpe.values))}.`}
              dates={sharpe.dates}
              lines={sharpeLines}
              kind="equity"
              formatValue={formatRatio}
            />
            <SeriesChart
              class="chart--rolling"
              caption={`Rolling ${months}-month volatility`}
              summary={`Annualized standard deviation of the last ${formatCount(report.rolling.window_days)} daily returns at each close, from ${formatPercent(Math.min(...volatility.values))} to ${formatPercent(Math.max(...volatility.values))}.`}
              dates={volatility.dates}
              lines={volatilityLines}
              kind="equity"
              formatValue={formatPercent}
            />
          </div>
        )}
      </section>
      <section class="report__section" aria-labelledby="report-histogram">
        <h3 id="report-histogram">Distribution of trade returns</h3>
        <TradeHistogram bins={report.trade_returns.bins} />
      </section>
    </div>
  );
}
