import { CandlestickSeries, createChart, createSeriesMarkers, type CandlestickData, type SeriesMarker, type Time } from 'lightweight-charts';
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { api, describeError } from '../api';
import { formatCount, formatMoney } from '../ui/format';
import { chartOptions, fittedWhole } from './series-chart';
import type { BacktestTrade } from './types';

/** `GET /api/symbols/:symbol/bars`: the stored bars of a period as columns (docs/market-data.md). */
export interface BarColumns {
  readonly symbol: string;
  readonly dates: readonly string[];
  readonly open: readonly number[];
  readonly high: readonly number[];
  readonly low: readonly number[];
  readonly close: readonly number[];
}

const UP = '#1a7f37';
const DOWN = '#b42318';
const BUY = '#1f5fbf';
/** Okabe–Ito orange: apart from the candles' red and green. */
const SELL = '#E69F00';
/** Above this many fills the markers lose their words: arrows alone stay readable over twenty years. */
const WORDED_MARKERS = 120;

/** Each fill as a marker on its bar: a buy an arrow up below it, a sell an arrow down above it. */
export function fillMarkers(trades: readonly BacktestTrade[]): SeriesMarker<Time>[] {
  const worded = trades.length <= WORDED_MARKERS;
  return trades.map((trade) =>
    trade.type === 'BUY'
      ? { time: trade.date.slice(0, 10), position: 'belowBar', shape: 'arrowUp', color: BUY, text: worded ? 'Buy' : '' }
      : { time: trade.date.slice(0, 10), position: 'aboveBar', shape: 'arrowDown', color: SELL, text: worded ? 'Sell' : '' },
  );
}

/**
 * The backtested symbol's daily candles over the run's period, with a marker at every fill. The bars come from the
 * store after the run (the backtest has fetched them); the chart is drawn once they are in.
 */
export function PriceChart(props: { symbol: string; startDate: string; endDate: string; trades: readonly BacktestTrade[] }) {
  const { symbol, startDate, endDate, trades } = props;
  const box = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const [bars, setBars] = useState<BarColumns | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const markers = useMemo(() => fillMarkers(trades), [trades]);

  useEffect(() => {
    let current = true;
    setBars(undefined);
    setError(undefined);
    const query = new URLSearchParams({ start_date: startDate, end_date: endDate });
    api.get<BarColumns>(`/api/symbols/${encodeURIComponent(symbol)}/bars?${query.toString()}`).then(
      (answer) => current && setBars(answer),
      (failure: unknown) => current && setError(describeError(failure)),
    );
    return () => {
      current = false;
    };
  }, [symbol, startDate, endDate]);

  useEffect(() => {
    if (!box.current || !bars) return;
    const chart = createChart(box.current, chartOptions('equity', formatMoney));
    const candles = chart.addSeries(CandlestickSeries, {
      upColor: UP,
      downColor: DOWN,
      borderVisible: false,
      wickUpColor: UP,
      wickDownColor: DOWN,
      priceLineVisible: false,
    });
    const data: CandlestickData<Time>[] = bars.dates.map((time, index) => ({ time, open: bars.open[index]!, high: bars.high[index]!, low: bars.low[index]!, close: bars.close[index]! }));
    candles.setData(data);
    // Not scaled to the markers: over twenty years they crowd the compressed bars and the markers' room pushed the
    // scale down to $0, flattening the candles; the scale's 10 % margins leave them room enough.
    createSeriesMarkers(candles, markers, { autoScale: false });
    return fittedWhole(chart);
  }, [bars, markers]);

  const buys = trades.filter((trade) => trade.type === 'BUY').length;
  const summary = bars
    ? `Daily candles of ${symbol}, ${formatCount(bars.dates.length)} bars; ${formatCount(buys)} buys (arrows up, below the bar) and ${formatCount(trades.length - buys)} sells (arrows down, above the bar) marked at their fills.`
    : error
      ? `The prices could not be loaded: ${error}`
      : 'Loading the prices…';
  return (
    <figure class="chart chart--price">
      <figcaption id={captionId} class="chart__caption">
        Price and fills
      </figcaption>
      <div class="chart__canvas" ref={box} role="img" aria-labelledby={captionId} aria-describedby={`${captionId}-summary`} />
      <p id={`${captionId}-summary`} class="chart__summary muted" aria-live="polite">
        {summary}
      </p>
    </figure>
  );
}
