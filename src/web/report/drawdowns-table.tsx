import { formatDays, formatPercent } from '../ui/format';
import type { DrawdownPeriod } from './report-types';

/** The deepest drawdowns, deepest first: when each began, bottomed and recovered (or did not), how deep and how long. */
export function DrawdownsTable(props: { drawdowns: readonly DrawdownPeriod[] }) {
  if (props.drawdowns.length === 0) return <p class="muted">No drawdown: equity never fell below a running peak.</p>;
  return (
    <div class="table-scroll" role="region" aria-labelledby="worst-drawdowns-caption" tabIndex={0}>
      <table class="worst-drawdowns">
        <caption id="worst-drawdowns-caption">
          The {props.drawdowns.length === 1 ? 'only drawdown' : `${props.drawdowns.length} deepest drawdowns`}, deepest first. Start is the last day at the peak; length counts calendar
          days to the recovery, or to the last day when not recovered.
        </caption>
        <thead>
          <tr>
            <th scope="col" class="num">
              Rank
            </th>
            <th scope="col">Start</th>
            <th scope="col">Trough</th>
            <th scope="col">Recovered</th>
            <th scope="col" class="num">
              Depth
            </th>
            <th scope="col" class="num">
              Length
            </th>
          </tr>
        </thead>
        <tbody>
          {props.drawdowns.map((drawdown, index) => (
            <tr key={drawdown.start}>
              <th scope="row" class="num">
                {index + 1}
              </th>
              <td>{drawdown.start}</td>
              <td>{drawdown.trough}</td>
              <td>{drawdown.end ?? 'not recovered'}</td>
              <td class="num negative">{formatPercent(drawdown.depth)}</td>
              <td class="num">{formatDays(drawdown.days)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
