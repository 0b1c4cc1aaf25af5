import { useMemo } from 'preact/hooks';
import { MetricValue } from '../lab/metric-cards';
import { scaleOf } from '../lab/heat-scale';
import { formatPercent, signClass } from '../ui/format';
import { heatCell, monthlyGrid, monthlyScale, MONTH_NAMES } from './monthly-grid';
import type { MonthlyReturn, YearlyReturn } from './report-types';

const FULL_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Returns by month: a row per year, a column per month and the year's total. Each month is coloured on the heat
 * map's scale from the worst month (dark purple) to the best (yellow); the totals on their own scale.
 */
export function MonthlyReturnsTable(props: { monthly: readonly MonthlyReturn[]; yearly: readonly YearlyReturn[] }) {
  const rows = useMemo(() => monthlyGrid(props.monthly, props.yearly), [props.monthly, props.yearly]);
  const months = useMemo(() => monthlyScale(props.monthly), [props.monthly]);
  const years = useMemo(() => scaleOf(props.yearly.map((entry) => entry.return)), [props.yearly]);
  if (rows.length === 0) return <p class="muted">No whole or partial month in the period.</p>;
  return (
    <div class="table-scroll" role="region" aria-labelledby="monthly-returns-caption" tabIndex={0}>
      <table class="monthly-returns">
        <caption id="monthly-returns-caption">
          Monthly returns, each year’s compounded in the last column. Colour runs from the worst month (dark purple) to the best (yellow).
        </caption>
        <thead>
          <tr>
            <th scope="col">Year</th>
            {MONTH_NAMES.map((name, index) => (
              <th scope="col" class="num" key={name}>
                <abbr title={FULL_MONTHS[index]}>{name}</abbr>
              </th>
            ))}
            <th scope="col" class="num">
              Year
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.year}>
              <th scope="row">{row.year}</th>
              {row.months.map((value, index) => (
                <td class="num" key={index} style={heatCell(value, months)}>
                  <MetricValue value={formatPercent(value)} />
                </td>
              ))}
              <td class="num monthly-returns__total" style={heatCell(row.total, years)}>
                <MetricValue value={formatPercent(row.total)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Returns by calendar year, in a table of their own (a year the period only touches is its part of the year). */
export function YearlyReturnsTable(props: { yearly: readonly { year: number; return: number }[] }) {
  return (
    <div class="table-scroll" role="region" aria-labelledby="yearly-returns-caption" tabIndex={0}>
      <table class="yearly-returns">
        <caption id="yearly-returns-caption">Returns by calendar year (the first and last years only for the days in the period).</caption>
        <thead>
          <tr>
            <th scope="col">Year</th>
            <th scope="col" class="num">
              Return
            </th>
          </tr>
        </thead>
        <tbody>
          {props.yearly.map((entry) => (
            <tr key={entry.year}>
              <th scope="row">{entry.year}</th>
              <td class={`num ${signClass(entry.return)}`}>{formatPercent(entry.return)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
