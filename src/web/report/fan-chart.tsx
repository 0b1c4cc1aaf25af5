import { useId, useMemo } from 'preact/hooks';
import { formatCount, formatWholeMoney } from '../ui/format';
import { FAN_BOX, fanGeometry } from './fan-geometry';
import type { PathBands } from './report-types';

/**
 * The Monte Carlo fan chart (SVG, so it scales to the page when printed): the 5th–95th and 25th–75th percentile
 * bands of the resampled equity paths, their median, and the run's actual path, over the trade number.
 */
export function FanChart(props: { bands: PathBands; summary: string }) {
  const captionId = useId();
  const geometry = useMemo(() => fanGeometry(props.bands), [props.bands]);
  const box = FAN_BOX;
  return (
    <figure class="chart fan-chart">
      <figcaption id={captionId} class="chart__caption">
        Equity after each trade: the resampled runs and the actual one
      </figcaption>
      <svg viewBox={`0 0 ${box.width} ${box.height}`} role="img" aria-labelledby={captionId} aria-describedby={`${captionId}-summary`}>
        {geometry.yTicks.map((tick) => (
          <g key={tick.value}>
            <line class="fan-chart__grid" x1={box.left} x2={box.width - box.right} y1={tick.y} y2={tick.y} />
            <text class="fan-chart__label" x={box.left - 6} y={tick.y + 4} text-anchor="end">
              {formatWholeMoney(tick.value)}
            </text>
          </g>
        ))}
        {geometry.xTicks.map((tick) => (
          <text key={tick.value} class="fan-chart__label" x={tick.x} y={box.height - 8} text-anchor="middle">
            {formatCount(tick.value)}
          </text>
        ))}
        <path class="fan-chart__outer" d={geometry.outer} />
        <path class="fan-chart__inner" d={geometry.inner} />
        <path class="fan-chart__median" d={geometry.median} />
        <path class="fan-chart__actual" d={geometry.actual} />
      </svg>
      <ul class="legend" aria-label="Legend">
        <li>
          <span class="legend__swatch fan-chart__key--outer" aria-hidden="true" />
          5th to 95th percentile
        </li>
        <li>
          <span class="legend__swatch fan-chart__key--inner" aria-hidden="true" />
          25th to 75th percentile
        </li>
        <li>
          <span class="legend__swatch fan-chart__key--median" aria-hidden="true" />
          Median
        </li>
        <li>
          <span class="legend__swatch fan-chart__key--actual" aria-hidden="true" />
          Actual order of the trades
        </li>
      </ul>
      <p id={`${captionId}-summary`} class="chart__summary muted">
        {props.summary}
      </p>
    </figure>
  );
}
