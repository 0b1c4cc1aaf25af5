import { AreaSeries, createChart, LineSeries, type IChartApi, type LineData, type Time } from 'lightweight-charts';
import { useEffect, useId, useRef } from 'preact/hooks';

export interface ChartLine {
  readonly name: string;
  readonly color: string;
  readonly values: readonly number[];
}

/**
 * One or more series over the same bar dates, drawn by lightweight-charts on a canvas. The chart follows its
 * box's size (`autoSize`, a ResizeObserver inside the library) and is removed on unmount or new data. Its
 * accessible name is the caption; `summary` says in words what the canvas shows.
 */
export function SeriesChart(props: {
  caption: string;
  summary: string;
  dates: readonly string[];
  lines: readonly ChartLine[];
  /** `drawdown`: one filled area hanging from 0; `equity`: plain lines. */
  kind: 'equity' | 'drawdown';
  formatValue: (value: number) => string;
  class?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const summaryId = `${captionId}-summary`;
  const { dates, lines, kind, formatValue } = props;

  useEffect(() => {
    if (!box.current) return;
    const chart = createChart(box.current, chartOptions(formatValue));
    for (const line of lines) addLine(chart, kind, line, dates);
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [dates, lines, kind, formatValue]);

  return (
    <figure class={`chart ${props.class ?? ''}`}>
      <figcaption id={captionId} class="chart__caption">
        {props.caption}
      </figcaption>
      <div class="chart__canvas" ref={box} role="img" aria-labelledby={captionId} aria-describedby={summaryId} />
      <p id={summaryId} class="chart__summary muted">
        {props.summary}
      </p>
    </figure>
  );
}

function chartOptions(formatValue: (value: number) => string) {
  return {
    autoSize: true,
    // The logo injects a <style> element, which the app's CSP (style-src 'self') refuses; the page credits
    // TradingView in text instead (docs/web-app.md).
    layout: { attributionLogo: false, textColor: '#14202e', fontFamily: 'system-ui, sans-serif' },
    grid: { vertLines: { color: '#eef1f5' }, horzLines: { color: '#eef1f5' } },
    rightPriceScale: { borderColor: '#d6dde6' },
    timeScale: { borderColor: '#d6dde6' },
    localization: { priceFormatter: formatValue },
    // A finger dragging across the chart scrolls the page instead of panning the chart.
    handleScroll: { vertTouchDrag: false },
  } as const;
}

function addLine(chart: IChartApi, kind: 'equity' | 'drawdown', line: ChartLine, dates: readonly string[]): void {
  const data: LineData<Time>[] = line.values.map((value, index) => ({ time: dates[index]!, value }));
  const common = { title: '', lastValueVisible: true, priceLineVisible: false } as const;
  if (kind === 'drawdown') {
    chart
      .addSeries(AreaSeries, { ...common, lineColor: line.color, topColor: `${line.color}66`, bottomColor: `${line.color}11`, invertFilledArea: true, lineWidth: 1 })
      .setData(data);
    return;
  }
  chart.addSeries(LineSeries, { ...common, color: line.color, lineWidth: 2 }).setData(data);
}
