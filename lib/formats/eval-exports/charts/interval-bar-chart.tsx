import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar, Line } from "@visx/shape";
import type { ChartMeasure, RunPoint } from "@/lib/formats/eval-exports/charts/chart-data";
import { BAR, FONT_FAMILY, GRID, INK, INTERVAL, MUTED_INK, VISUALLY_HIDDEN, fitLabel } from "@/lib/formats/eval-exports/charts/chart-style";
import { formatChartValue, measureName } from "@/lib/formats/eval-exports/charts/format-chart-value";

/** The chart's fixed geometry, in SVG units: no measuring, so the server draws what the page does. */
export const INTERVAL_BAR_CHART = {
  width: 640,
  margin: { top: 28, right: 96, bottom: 48, left: 208 },
  rowHeight: 36,
  barHeight: 20,
  capHeight: 12,
} as const;

/** The chart's height for a number of runs. */
export function intervalBarChartHeight(rows: number): number {
  const { margin, rowHeight } = INTERVAL_BAR_CHART;
  return margin.top + Math.max(1, rows) * rowHeight + margin.bottom;
}

export type IntervalBarChartProps = {
  points: readonly RunPoint[];
  measure: ChartMeasure;
  /** The title read out for the SVG and the table's caption. */
  title: string;
};

/**
 * One horizontal bar per run (a prompt on a model) from 0 to its pass rate or mean score, with
 * its 95% interval as an error bar, then the same figures in a visually hidden table for screen
 * readers. Plain SVG with fixed sizes, so react-dom/server renders it for the HTML report too.
 */
export function IntervalBarChart({ points, measure, title }: IntervalBarChartProps) {
  const { width, margin, rowHeight, barHeight, capHeight } = INTERVAL_BAR_CHART;
  const height = intervalBarChartHeight(points.length);
  const plotBottom = height - margin.bottom;
  const x = scaleLinear<number>({ domain: [0, 1], range: [margin.left, width - margin.right] });
  const y = scaleBand<string>({
    domain: points.map((point) => point.run_id),
    range: [margin.top, margin.top + points.length * rowHeight],
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const name = measureName(measure);
  const format = (value: number) => formatChartValue(value, measure);
  const summary = `${title}. ${points
    .map(
      (point) =>
        `${point.label}: ${format(point.estimate.value)}, 95% interval ${format(point.interval.low)} to ${format(point.interval.high)}`,
    )
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
        data-chart="interval-bars"
      >
        <title>{title}</title>
        {ticks.map((tick) => (
          <Group key={tick} data-part="tick">
            <Line from={{ x: x(tick), y: margin.top }} to={{ x: x(tick), y: plotBottom }} stroke={GRID} strokeWidth={1} />
            <text x={x(tick)} y={plotBottom + 16} textAnchor="middle" fill={MUTED_INK}>
              {format(tick)}
            </text>
          </Group>
        ))}
        <Line from={{ x: margin.left, y: plotBottom }} to={{ x: width - margin.right, y: plotBottom }} stroke={MUTED_INK} strokeWidth={1} />
        <text x={margin.left - 8} y={margin.top - 10} textAnchor="end" fill={INK} fontWeight={600} data-part="row-axis-label">
          {rowAxisName(points)}
        </text>
        <text x={width - 4} y={margin.top - 10} textAnchor="end" fill={INK} fontWeight={600} data-part="value-axis-label">
          {name}
        </text>
        <text x={(margin.left + width - margin.right) / 2} y={height - 8} textAnchor="middle" fill={INK} data-part="axis-label">
          {`${name} (bars), 95% interval (whiskers)`}
        </text>
        {points.map((point) => {
          const top = y(point.run_id) ?? margin.top;
          const middle = top + rowHeight / 2;
          const value = Number.isFinite(point.estimate.value) ? point.estimate.value : 0;
          const hasInterval = Number.isFinite(point.interval.low) && Number.isFinite(point.interval.high);
          return (
            <Group key={point.run_id} data-run={point.run_id}>
              <text x={margin.left - 8} y={middle} dy="0.32em" textAnchor="end" fill={INK}>
                {fitLabel(point.label)}
              </text>
              <Bar x={x(0)} y={middle - barHeight / 2} width={x(value) - x(0)} height={barHeight} fill={BAR} data-part="bar" />
              {hasInterval && (
                <Group data-part="interval" stroke={INTERVAL} strokeWidth={2}>
                  <Line from={{ x: x(point.interval.low), y: middle }} to={{ x: x(point.interval.high), y: middle }} data-part="whisker" />
                  <Line
                    from={{ x: x(point.interval.low), y: middle - capHeight / 2 }}
                    to={{ x: x(point.interval.low), y: middle + capHeight / 2 }}
                    data-part="low-cap"
                  />
                  <Line
                    from={{ x: x(point.interval.high), y: middle - capHeight / 2 }}
                    to={{ x: x(point.interval.high), y: middle + capHeight / 2 }}
                    data-part="high-cap"
                  />
                </Group>
              )}
              <text x={width - margin.right + 8} y={middle} dy="0.32em" fill={INK} data-part="value">
                {format(point.estimate.value)}
              </text>
            </Group>
          );
        })}
      </svg>
      {/* A wrapper, not the table, is hidden: a table grows to its cells whatever its width says. */}
      <div style={VISUALLY_HIDDEN}>
        <table data-chart-table="interval-bars">
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Prompt</th>
              <th scope="col">Model</th>
              <th scope="col">{name}</th>
              <th scope="col">Standard error</th>
              <th scope="col">95% interval</th>
              <th scope="col">Results</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.run_id}>
                <td>{point.prompt_name}</td>
                <td>{point.model}</td>
                <td>{format(point.estimate.value)}</td>
                <td>{format(point.estimate.standard_error)}</td>
                <td>{`${format(point.interval.low)} to ${format(point.interval.high)}`}</td>
                <td>
                  {point.results === point.cases ? `${point.cases} test cases` : `${point.results} results over ${point.cases} test cases`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** What the row labels name, as runLabels (chart-data.ts) makes them. */
function rowAxisName(points: readonly RunPoint[]): string {
  const models = new Set(points.map((point) => point.model)).size;
  const prompts = new Set(points.map((point) => point.prompt_name)).size;
  if (models > 1) return prompts > 1 ? "Prompt (model)" : "Model";
  return "Prompt";
}
