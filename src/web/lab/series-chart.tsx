import { BaselineSeries, createChart, LineSeries, type AutoscaleInfo, type IChartApi, type LineData, type Time } from 'lightweight-charts';
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
  /** `drawdown`: one area filled between 0 and the line; `equity`: plain lines. */
  kind: 'equity' | 'drawdown';
  formatValue: (value: number) => string;
  class?: string;
  /** A legend of the lines under the chart (its own when several lines need naming). */
  legend?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const summaryId = `${captionId}-summary`;
  const { dates, lines, kind, formatValue } = props;

  useEffect(() => {
    if (!box.current) return;
    const chart = createChart(box.current, chartOptions(kind, formatValue));
    for (const line of lines) addLine(chart, kind, line, dates);
    return fittedWhole(chart);
  }, [dates, lines, kind, formatValue]);

  return (
    <figure class={`chart ${props.class ?? ''}`}>
      <figcaption id={captionId} class="chart__caption">
        {props.caption}
      </figcaption>
      <div class="chart__canvas" ref={box} role="img" aria-labelledby={captionId} aria-describedby={summaryId} />
      {props.legend && <ChartLegend lines={lines} />}
      <p id={summaryId} class="chart__summary muted">
        {props.summary}
      </p>
    </figure>
  );
}

/**
 * Fits the whole period now and whenever the width changes (the canvas gets its size from autoSize after the
 * chart is made; a result chart is read whole, zooming in is a detail view). Returns what removes the chart.
 */
export function fittedWhole(chart: IChartApi): () => void {
  const timeScale = chart.timeScale();
  const fit = () => timeScale.fitContent();
  timeScale.subscribeSizeChange(fit);
  fit();
  return () => {
    timeScale.unsubscribeSizeChange(fit);
    chart.remove();
  };
}

/** The look every lab chart shares; `drawdown` keeps little room above 0. */
export function chartOptions(kind: 'equity' | 'drawdown', formatValue: (value: number) => string) {
  return {
    autoSize: true,
    // The logo injects a <style> element, which the app's CSP (style-src 'self') refuses; the page credits
    // TradingView in text instead (docs/web-app.md).
    layout: { attributionLogo: false, textColor: '#14202e', fontFamily: 'system-ui, sans-serif' },
    grid: { vertLines: { color: '#eef1f5' }, horzLines: { color: '#eef1f5' } },
    // Drawdowns end at 0: little room above them.
    rightPriceScale: { borderColor: '#d6dde6', scaleMargins: kind === 'drawdown' ? { top: 0.05, bottom: 0.05 } : { top: 0.1, bottom: 0.1 } },
    // Twenty years of daily bars fit in 300 px only below the default minimum of half a pixel per bar.
    timeScale: { borderColor: '#d6dde6', minBarSpacing: 0.01 },
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
      .addSeries(BaselineSeries, {
        ...common,
        baseValue: { type: 'price', price: 0 },
        bottomLineColor: line.color,
        bottomFillColor1: `${line.color}22`,
        bottomFillColor2: `${line.color}88`,
        lineWidth: 1,
        // Drawdowns are ≤ 0: keep 0 as the top of the scale rather than padding above it.
        autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
          const info = original();
          if (info?.priceRange) info.priceRange.maxValue = 0;
          return info;
        },
      })
      .setData(data);
    return;
  }
  chart.addSeries(LineSeries, { ...common, color: line.color, lineWidth: 2 }).setData(data);
}

/** The lines' names beside their colours. */
export function ChartLegend(props: { lines: readonly ChartLine[] }) {
  return (
    <ul class="legend" aria-label="Legend">
      {props.lines.map((line) => (
        <li key={line.name}>
          <span class="legend__swatch" style={{ backgroundColor: line.color }} aria-hidden="true" />
          {line.name}
        </li>
      ))}
    </ul>
  );
}
