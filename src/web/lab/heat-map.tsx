import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { colourAt, scaleGradient, scalePosition, type Scale } from './heat-scale';
import { describeParams, type CellGrid } from './sweep-grid';
import { METRICS, OBJECTIVE_LABELS, formatObjective, objectiveValue, thinNote } from './sweep-objectives';
import type { Objective, SweepCell } from './sweep-types';
import { parameterLabel } from './template-parameters';

const LABEL_FONT = '11px system-ui, sans-serif';
const INK = '#14202e';
const LINE = '#d6dde6';
const NO_VALUE = '#c9d2dc';

interface Layout {
  readonly left: number;
  readonly top: number;
  readonly cellWidth: number;
  readonly cellHeight: number;
  readonly width: number;
  readonly height: number;
}

function layoutOf(width: number, rows: number, columns: number, twoD: boolean): Layout {
  const left = twoD ? 52 : 8;
  const top = 20;
  const cellWidth = Math.max(1, (width - left - 8) / columns);
  const cellHeight = twoD ? Math.min(36, Math.max(4, Math.floor(420 / rows))) : 48;
  return { left, top, cellWidth, cellHeight, width, height: top + rows * cellHeight + 4 };
}

/** Every how many labels one is drawn, so that they do not overlap. */
function labelEvery(room: number, needed: number): number {
  return Math.max(1, Math.ceil(needed / room));
}

interface Position {
  readonly row: number;
  readonly column: number;
}

/**
 * The sweep as a heat map on a canvas: one cell per parameter pair, coloured by the objective on the viridis scale
 * (yellow highest), the best cell outlined in black, cells the server left out drawn empty, cells without a
 * value (no denominator) grey and thin cells (fewer trades than the minimum) hatched. Hover shows a cell's figures; arrow keys move a focused cell whose figures a live
 * line reads out; a click or Enter opens that cell's backtest (`onOpen`).
 */
export function HeatMap(props: {
  layout: CellGrid;
  cells: readonly SweepCell[];
  parameters: readonly string[];
  objective: Objective;
  scale: Scale | undefined;
  best: Position | undefined;
  minTrades: number;
  onOpen: (cell: SweepCell) => void;
}) {
  const { layout, cells, parameters, objective, scale } = props;
  const rowCount = layout.grid.length;
  const columnCount = layout.columns.values.length;
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const [hover, setHover] = useState<(Position & { x: number; y: number }) | undefined>(undefined);
  const [focused, setFocused] = useState<Position>(props.best ?? { row: 0, column: 0 });
  const [showFocus, setShowFocus] = useState(false);
  const readoutId = useId();
  const geometry = layoutOf(width, rowCount, columnCount, layout.rows !== undefined);

  useEffect(() => setFocused(props.best ?? { row: 0, column: 0 }), [layout]);
  useEffect(() => {
    if (!box.current) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(box.current);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (canvas.current && width > 0) draw(canvas.current, geometry, props, showFocus ? focused : undefined);
  }, [width, layout, cells, objective, scale, focused, showFocus]);

  const cellAt = (position: Position): SweepCell | undefined => {
    const index = layout.grid[position.row]?.[position.column];
    return index === undefined ? undefined : cells[index];
  };
  const positionAt = (event: MouseEvent): Position | undefined => {
    const rect = canvas.current!.getBoundingClientRect();
    const column = Math.floor((event.clientX - rect.left - geometry.left) / geometry.cellWidth);
    const row = Math.floor((event.clientY - rect.top - geometry.top) / geometry.cellHeight);
    return row >= 0 && row < rowCount && column >= 0 && column < columnCount ? { row, column } : undefined;
  };
  const describe = (position: Position): string => {
    const cell = cellAt(position);
    const where = layout.rows ? `Row ${position.row + 1} of ${rowCount}, column ${position.column + 1} of ${columnCount}` : `Cell ${position.column + 1} of ${columnCount}`;
    const params = { [layout.columns.name]: layout.columns.values[position.column]!, ...(layout.rows ? { [layout.rows.name]: layout.rows.values[position.row]! } : {}) };
    const best = props.best && props.best.row === position.row && props.best.column === position.column ? ' (best cell)' : '';
    if (!cell) return `${where}: ${describeParams(params, parameters)}: left out (the template does not allow this pair).`;
    const thin = cell.thin ? ` Thin: ${thinNote(props.minTrades)}.` : '';
    return `${where}${best}: ${describeParams(cell.params, parameters)}. ${cellFigures(cell)}.${thin}`;
  };

  function onKeyDown(event: KeyboardEvent) {
    const moves: Record<string, Position> = {
      ArrowLeft: { row: focused.row, column: focused.column - 1 },
      ArrowRight: { row: focused.row, column: focused.column + 1 },
      ArrowUp: { row: focused.row - 1, column: focused.column },
      ArrowDown: { row: focused.row + 1, column: focused.column },
      Home: { row: focused.row, column: 0 },
      End: { row: focused.row, column: columnCount - 1 },
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      setShowFocus(true);
      setFocused({ row: Math.min(rowCount - 1, Math.max(0, move.row)), column: Math.min(columnCount - 1, Math.max(0, move.column)) });
      return;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      const cell = cellAt(focused);
      if (!cell) return;
      event.preventDefault();
      props.onOpen(cell);
    }
  }

  const hovered = hover && cellAt(hover);
  const axes = layout.rows ? `${parameterLabel(layout.rows.name)} down, ${parameterLabel(layout.columns.name).toLowerCase()} across` : `${parameterLabel(layout.columns.name)} across`;
  return (
    <figure class="heat-map">
      <figcaption class="chart__caption">
        {OBJECTIVE_LABELS[objective]} by parameter pair <span class="muted">({axes})</span>
      </figcaption>
      <div class="heat-map__box" ref={box}>
        <canvas
          ref={canvas}
          class="heat-map__canvas"
          tabIndex={0}
          role="application"
          aria-roledescription="heat map"
          aria-label={`Heat map of ${OBJECTIVE_LABELS[objective].toLowerCase()}, ${axes}. Arrow keys move between cells, Enter opens the cell's backtest in the lab. The table of top cells below gives the same figures.`}
          aria-describedby={readoutId}
          data-left={geometry.left}
          data-top={geometry.top}
          data-cell-width={geometry.cellWidth}
          data-cell-height={geometry.cellHeight}
          style={{ height: `${geometry.height}px` }}
          onMouseMove={(event) => {
            const position = positionAt(event);
            const rect = canvas.current!.getBoundingClientRect();
            setHover(position && { ...position, x: event.clientX - rect.left, y: event.clientY - rect.top });
          }}
          onMouseLeave={() => setHover(undefined)}
          onClick={(event) => {
            const position = positionAt(event);
            const cell = position && cellAt(position);
            if (cell) props.onOpen(cell);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setShowFocus(true)}
          onBlur={() => setShowFocus(false)}
        />
        {hover && (
          <div
            class="heat-map__tooltip"
            role="tooltip"
            style={{ left: `${Math.min(hover.x + 14, Math.max(0, width - 240))}px`, top: `${hover.y + 14}px` }}
          >
            {hovered ? (
              <>
                <strong>{describeParams(hovered.params, parameters)}</strong>
                {hovered.thin && <p class="heat-map__thin">Thin: {thinNote(props.minTrades)}.</p>}
                <dl>
                  {METRICS.map((metric) => (
                    <div key={metric.key}>
                      <dt>{metric.label}</dt>
                      <dd>{metric.format(hovered[metric.key])}</dd>
                    </div>
                  ))}
                </dl>
              </>
            ) : (
              <span>{describe(hover)}</span>
            )}
          </div>
        )}
      </div>
      <p class="heat-map__readout" id={readoutId} aria-live="polite">
        {describe(focused)}
      </p>
      <HeatLegend objective={objective} scale={scale} minTrades={cells.some((cell) => cell.thin) ? props.minTrades : undefined} />
    </figure>
  );
}

function cellFigures(cell: SweepCell): string {
  return METRICS.map((metric) => `${metric.label} ${metric.format(cell[metric.key])}`).join(', ');
}

function HeatLegend(props: { objective: Objective; scale: Scale | undefined; minTrades: number | undefined }) {
  const { scale, objective } = props;
  return (
    <div class="heat-legend">
      <span class="heat-legend__end">{scale ? formatObjective(objective, scale.min) : '—'}</span>
      <span class="heat-legend__bar" style={{ backgroundImage: scaleGradient() }} aria-hidden="true" />
      <span class="heat-legend__end">{scale ? formatObjective(objective, scale.max) : '—'}</span>
      <span class="visually-hidden">
        Colour scale of {OBJECTIVE_LABELS[objective].toLowerCase()}: dark purple for the lowest, yellow for the highest.
      </span>
      <span class="heat-legend__key">
        <span class="heat-legend__swatch heat-legend__swatch--best" aria-hidden="true" /> best cell
      </span>
      <span class="heat-legend__key">
        <span class="heat-legend__swatch heat-legend__swatch--none" aria-hidden="true" /> no value
      </span>
      <span class="heat-legend__key">
        <span class="heat-legend__swatch heat-legend__swatch--empty" aria-hidden="true" /> left out
      </span>
      {props.minTrades !== undefined && (
        <span class="heat-legend__key">
          <span class="heat-legend__swatch heat-legend__swatch--thin" aria-hidden="true" /> hatched: thin, {thinNote(props.minTrades)}
        </span>
      )}
    </div>
  );
}

function draw(
  canvas: HTMLCanvasElement,
  geometry: Layout,
  props: { layout: CellGrid; cells: readonly SweepCell[]; objective: Objective; scale: Scale | undefined; best: Position | undefined },
  focused: Position | undefined,
): void {
  const { layout, cells, objective, scale } = props;
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(geometry.width * ratio);
  canvas.height = Math.round(geometry.height * ratio);
  const context = canvas.getContext('2d');
  if (!context) return;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, geometry.width, geometry.height);
  const { left, top, cellWidth, cellHeight } = geometry;
  const rect = (position: Position) => [left + position.column * cellWidth, top + position.row * cellHeight, cellWidth, cellHeight] as const;

  layout.grid.forEach((row, rowIndex) =>
    row.forEach((index, column) => {
      const [x, y, w, h] = rect({ row: rowIndex, column });
      if (index === undefined) {
        context.strokeStyle = LINE;
        context.lineWidth = 1;
        if (w > 3 && h > 3) context.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
        return;
      }
      const value = objectiveValue(cells[index]!, objective);
      context.fillStyle = value === null || !scale ? NO_VALUE : colourAt(scalePosition(value, scale));
      // A hair over the cell's size, so neighbours meet without seams at fractional widths.
      context.fillRect(x, y, w + 0.5, h + 0.5);
      if (cells[index]!.thin) hatch(context, x, y, w, h);
    }),
  );

  context.font = LABEL_FONT;
  context.fillStyle = INK;
  context.textBaseline = 'middle';
  context.textAlign = 'center';
  const columnStep = labelEvery(cellWidth, 34);
  layout.columns.values.forEach((value, column) => {
    if (column % columnStep === 0) context.fillText(String(value), left + (column + 0.5) * cellWidth, top / 2);
  });
  if (layout.rows) {
    context.textAlign = 'right';
    const rowStep = labelEvery(cellHeight, 13);
    layout.rows.values.forEach((value, row) => {
      if (row % rowStep === 0) context.fillText(String(value), left - 6, top + (row + 0.5) * cellHeight);
    });
  }

  if (props.best) outline(context, rect(props.best), '#000000', '#ffffff');
  if (focused) outline(context, rect(focused), '#1f5fbf', '#ffffff', true);
}

/** Diagonal lines over a thin cell: its colour stays readable, and it looks like no other kind of cell. */
function hatch(context: CanvasRenderingContext2D, x: number, y: number, w: number, h: number): void {
  context.save();
  context.beginPath();
  context.rect(x, y, w, h);
  context.clip();
  context.beginPath();
  for (let offset = -h; offset < w; offset += 6) {
    context.moveTo(x + offset, y + h);
    context.lineTo(x + offset + h, y);
  }
  // A dark line edged in white shows on the lightest colour of the scale and on the darkest alike.
  context.strokeStyle = 'rgba(255, 255, 255, 0.9)';
  context.lineWidth = 2.5;
  context.stroke();
  context.strokeStyle = INK;
  context.lineWidth = 1;
  context.stroke();
  context.restore();
}

function outline(context: CanvasRenderingContext2D, [x, y, w, h]: readonly [number, number, number, number], outer: string, inner: string, dashed = false): void {
  context.setLineDash(dashed ? [4, 3] : []);
  context.lineWidth = 3;
  context.strokeStyle = outer;
  context.strokeRect(x + 1.5, y + 1.5, Math.max(1, w - 3), Math.max(1, h - 3));
  context.setLineDash([]);
  context.lineWidth = 1;
  context.strokeStyle = inner;
  if (w > 8 && h > 8) context.strokeRect(x + 3.5, y + 3.5, w - 7, h - 7);
}
