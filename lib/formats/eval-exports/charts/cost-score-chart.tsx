import { Group } from "@visx/group";
import { scaleLinear } from "@visx/scale";
import { Line } from "@visx/shape";
import type { ChartMeasure, RunPoint } from "@/lib/formats/eval-exports/charts/chart-data";
import { FONT_FAMILY, GRID, INK, MODEL_COLOURS, MUTED_INK, VISUALLY_HIDDEN, fitLabel } from "@/lib/formats/eval-exports/charts/chart-style";
import { formatChartCost, formatChartValue, measureName } from "@/lib/formats/eval-exports/charts/format-chart-value";

/** The chart's fixed geometry, in SVG units. */
export const COST_SCORE_CHART = {
  width: 640,
  plotHeight: 280,
  margin: { top: 16, right: 32, bottom: 56, left: 72 },
  legendRowHeight: 18,
  pointRadius: 5,
  capWidth: 10,
} as const;

/** The cost axis's end when no run cost anything (mock models): a small range keeps the points on it. */
const FREE_COST_DOMAIN = 0.001;

export type CostScoreChartProps = {
  points: readonly RunPoint[];
  measure: ChartMeasure;
  title: string;
};

/** The models in the order first seen, each with its colour. */
export function modelColours(points: readonly RunPoint[]): Map<string, string> {
  const colours = new Map<string, string>();
  for (const point of points) {
    if (!colours.has(point.model)) colours.set(point.model, MODEL_COLOURS[colours.size % MODEL_COLOURS.length]);
  }
  return colours;
}

/** The chart's height for a number of models (a legend row each). */
export function costScoreChartHeight(models: number): number {
  const { margin, plotHeight, legendRowHeight } = COST_SCORE_CHART;
  return margin.top + plotHeight + margin.bottom + Math.max(1, models) * legendRowHeight;
}

/**
 * Each run's cost (x, US dollars for all its results) against its pass rate or mean score (y)
 * with the 95% interval as a vertical error bar, one colour per model, then the same figures in
 * a visually hidden table. Runs without a known price are listed in the table, not drawn.
 */
export function CostScoreChart({ points, measure, title }: CostScoreChartProps) {
  const { width, plotHeight, margin, legendRowHeight, pointRadius, capWidth } = COST_SCORE_CHART;
  const colours = modelColours(points);
  const height = costScoreChartHeight(colours.size);
  const plotBottom = margin.top + plotHeight;
  const priced = points.filter((point) => point.cost_usd !== null && Number.isFinite(point.estimate.value));
  const maxCost = Math.max(0, ...priced.map((point) => point.cost_usd ?? 0));
  const x = scaleLinear<number>({
    domain: [0, maxCost > 0 ? maxCost : FREE_COST_DOMAIN],
    range: [margin.left, width - margin.right],
    nice: true,
  });
  const y = scaleLinear<number>({ domain: [0, 1], range: [plotBottom, margin.top] });
  const name = measureName(measure);
  const format = (value: number) => formatChartValue(value, measure);
  const unpriced = points.length - priced.length;
  const labels = pointLabels(priced.map((point) => ({ x: x(point.cost_usd ?? 0), y: y(point.estimate.value), name: point.prompt_name })));
  const summary = `${title}. ${points
    .map((point) => `${point.label}: ${formatChartCost(point.cost_usd)}, ${name.toLowerCase()} ${format(point.estimate.value)}`)
    .join("; ")}.`;
  return (
    <>
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={summary}
        fontFamily={FONT_FAMILY}
        fontSize={12}
        data-chart="cost-score"
      >
        <title>{title}</title>
        {x.ticks(5).map((tick) => (
          <Group key={`x${tick}`} data-part="x-tick">
            <Line from={{ x: x(tick), y: margin.top }} to={{ x: x(tick), y: plotBottom }} stroke={GRID} strokeWidth={1} />
            <text x={x(tick)} y={plotBottom + 16} textAnchor="middle" fill={MUTED_INK}>
              {formatChartCost(tick)}
            </text>
          </Group>
        ))}
        {[0, 0.25, 0.5, 0.75, 1].map((tick) => (
          <Group key={`y${tick}`} data-part="y-tick">
            <Line from={{ x: margin.left, y: y(tick) }} to={{ x: width - margin.right, y: y(tick) }} stroke={GRID} strokeWidth={1} />
            <text x={margin.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" fill={MUTED_INK}>
              {format(tick)}
            </text>
          </Group>
        ))}
        <Line from={{ x: margin.left, y: plotBottom }} to={{ x: width - margin.right, y: plotBottom }} stroke={MUTED_INK} strokeWidth={1} />
        <Line from={{ x: margin.left, y: margin.top }} to={{ x: margin.left, y: plotBottom }} stroke={MUTED_INK} strokeWidth={1} />
        <text x={(margin.left + width - margin.right) / 2} y={plotBottom + 40} textAnchor="middle" fill={INK} data-part="x-axis-label">
          Cost of the run (US dollars)
        </text>
        <text
          x={16}
          y={(margin.top + plotBottom) / 2}
          textAnchor="middle"
          transform={`rotate(-90 16 ${(margin.top + plotBottom) / 2})`}
          fill={INK}
          data-part="y-axis-label"
        >
          {`${name}, 95% interval`}
        </text>
        {priced.map((point, index) => {
          const cx = x(point.cost_usd ?? 0);
          const cy = y(point.estimate.value);
          const label = labels[index];
          const colour = colours.get(point.model) ?? INK;
          const hasInterval = Number.isFinite(point.interval.low) && Number.isFinite(point.interval.high);
          const rightHalf = cx > (margin.left + width - margin.right) / 2;
          return (
            <Group key={point.run_id} data-run={point.run_id}>
              {hasInterval && (
                <Group data-part="interval" stroke={colour} strokeWidth={1.5}>
                  <Line from={{ x: cx, y: y(point.interval.low) }} to={{ x: cx, y: y(point.interval.high) }} data-part="whisker" />
                  <Line
                    from={{ x: cx - capWidth / 2, y: y(point.interval.low) }}
                    to={{ x: cx + capWidth / 2, y: y(point.interval.low) }}
                    data-part="low-cap"
                  />
                  <Line
                    from={{ x: cx - capWidth / 2, y: y(point.interval.high) }}
                    to={{ x: cx + capWidth / 2, y: y(point.interval.high) }}
                    data-part="high-cap"
                  />
                </Group>
              )}
              <circle cx={cx} cy={cy} r={pointRadius} fill={colour} stroke="#ffffff" strokeWidth={1} data-part="point" />
              {label !== null && (
                <text
                  x={rightHalf ? cx - pointRadius - 4 : cx + pointRadius + 4}
                  y={cy}
                  dy="0.32em"
                  textAnchor={rightHalf ? "end" : "start"}
                  fill={INK}
                  data-part="point-label"
                >
                  {label}
                </text>
              )}
            </Group>
          );
        })}
        {unpriced > 0 && (
          <text
            x={width - margin.right}
            y={plotBottom + margin.bottom + legendRowHeight / 2}
            dy="0.32em"
            textAnchor="end"
            fill={MUTED_INK}
            data-part="unpriced"
          >
            {unpriced === 1 ? "1 run without a known price is not drawn" : `${unpriced} runs without a known price are not drawn`}
          </text>
        )}
        {[...colours].map(([model, colour], index) => {
          const top = plotBottom + margin.bottom + index * legendRowHeight;
          return (
            <Group key={model} data-part="legend">
              <circle cx={margin.left + pointRadius} cy={top + legendRowHeight / 2} r={pointRadius} fill={colour} />
              <text x={margin.left + pointRadius * 2 + 6} y={top + legendRowHeight / 2} dy="0.32em" fill={INK}>
                {fitLabel(model, 60)}
              </text>
            </Group>
          );
        })}
      </svg>
      {/* A wrapper, not the table, is hidden: a table grows to its cells whatever its width says. */}
      <div style={VISUALLY_HIDDEN}>
        <table data-chart-table="cost-score">
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Prompt</th>
              <th scope="col">Model</th>
              <th scope="col">Cost</th>
              <th scope="col">{name}</th>
              <th scope="col">Standard error</th>
              <th scope="col">95% interval</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.run_id}>
                <td>{point.prompt_name}</td>
                <td>{point.model}</td>
                <td>{formatChartCost(point.cost_usd)}</td>
                <td>{format(point.estimate.value)}</td>
                <td>{format(point.estimate.standard_error)}</td>
                <td>{`${format(point.interval.low)} to ${format(point.interval.high)}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** Points closer than this, in SVG units, share one label: two labels there would print over each other. */
const SAME_PLACE = 2;

/**
 * Each point's label, or null when an earlier point at the same place carries it: the prompts of
 * every run drawn there, joined ("v1, v2"), as runs with the same cost and rate would otherwise
 * write their names on top of one another (free mock models, for one).
 */
export function pointLabels(points: readonly { x: number; y: number; name: string }[]): (string | null)[] {
  const labels: (string | null)[] = [];
  const groups: { x: number; y: number; index: number; names: string[] }[] = [];
  points.forEach((point, index) => {
    const group = groups.find(
      (candidate) => Math.abs(candidate.x - point.x) <= SAME_PLACE && Math.abs(candidate.y - point.y) <= SAME_PLACE,
    );
    if (group) {
      if (!group.names.includes(point.name)) group.names.push(point.name);
      labels.push(null);
    } else {
      groups.push({ x: point.x, y: point.y, index, names: [point.name] });
      labels.push("");
    }
  });
  for (const group of groups) labels[group.index] = fitLabel(group.names.join(", "), 40);
  return labels;
}
