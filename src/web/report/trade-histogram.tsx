import { useId, useMemo } from 'preact/hooks';
import { formatCount, formatPercent } from '../ui/format';
import { histogramBars } from './report-series';

const WIDTH = 600;
const HEIGHT = 160;

/** How the round trips' returns spread: a bar per bin of the answer, losses red and gains green, drawn as SVG. */
export function TradeHistogram(props: { bins: readonly { from: number; to: number; count: number }[] }) {
  const captionId = useId();
  const bars = useMemo(() => histogramBars(props.bins, WIDTH, HEIGHT), [props.bins]);
  const total = props.bins.reduce((sum, bin) => sum + bin.count, 0);
  if (total === 0) return <p class="muted">No closed trade, so no returns to show.</p>;
  const fullest = bars.reduce((best, bar) => (bar.count > best.count ? bar : best), bars[0]!);
  const first = bars[0]!;
  const last = bars[bars.length - 1]!;
  // Where a return of 0 falls (the bins are of equal width).
  const zeroAt = (-first.from / (last.to - first.from)) * WIDTH;
  return (
    <figure class="chart trade-histogram">
      <figcaption id={captionId} class="chart__caption">
        Returns of the trades
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={captionId} aria-describedby={`${captionId}-summary`} preserveAspectRatio="none">
        {bars.map((bar) => (
          <rect
            key={bar.from}
            class={bar.to <= 0 ? 'trade-histogram__loss' : bar.from >= 0 ? 'trade-histogram__gain' : 'trade-histogram__mixed'}
            x={bar.x + 1}
            width={Math.max(0, bar.width - 2)}
            y={bar.y}
            height={bar.height}
          >
            <title>{`${formatPercent(bar.from)} to ${formatPercent(bar.to)}: ${formatCount(bar.count)} trades`}</title>
          </rect>
        ))}
        <line x1={0} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} class="trade-histogram__axis" />
        {first.from < 0 && last.to > 0 && <line x1={zeroAt} x2={zeroAt} y1={0} y2={HEIGHT} class="trade-histogram__zero" />}
      </svg>
      <p class="trade-histogram__ends" aria-hidden="true">
        <span>{formatPercent(first.from)}</span>
        <span>{formatPercent(last.to)}</span>
      </p>
      <p id={`${captionId}-summary`} class="chart__summary muted">
        {formatCount(total)} round trips in {formatCount(bars.length)} bins from {formatPercent(first.from)} to {formatPercent(last.to)}; the most ({formatCount(fullest.count)}) between{' '}
        {formatPercent(fullest.from)} and {formatPercent(fullest.to)}. Red bins are losses, green gains.
      </p>
    </figure>
  );
}
