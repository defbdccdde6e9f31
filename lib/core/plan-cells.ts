/** One model call in a run: a dataset row, a model column and a repetition. */
export type PlannedCell = { rowIndex: number; columnIndex: number; trial: number };

/**
 * Every cell of a run in row-major order (row 0 col 0, row 0 col 1, ...), trials innermost and
 * numbered from 0, so results fill the grid top to bottom as they arrive.
 */
export function planCells(input: { rowCount: number; columnCount: number; trials?: number }): PlannedCell[] {
  const { rowCount, columnCount, trials = 1 } = input;
  assertCount("rowCount", rowCount, 0);
  assertCount("columnCount", columnCount, 0);
  // Zero trials would plan a run with no cells at all, which is a caller's mistake, not a run.
  assertCount("trials", trials, 1);

  const cells: PlannedCell[] = [];
  for (let rowIndex = 0; rowIndex < rowCount; rowIndex++) {
    for (let columnIndex = 0; columnIndex < columnCount; columnIndex++) {
      for (let trial = 0; trial < trials; trial++) cells.push({ rowIndex, columnIndex, trial });
    }
  }
  return cells;
}

function assertCount(name: string, value: number, minimum: number): void {
  if (!Number.isInteger(value) || value < minimum) {
    throw new RangeError(`${name} must be an integer of at least ${minimum}; got ${value}`);
  }
}
