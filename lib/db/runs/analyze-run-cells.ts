import type { Database } from "../database";

/**
 * Refreshes the planner's statistics of run_cells, after a large run was planned. PGlite has no
 * autovacuum, so it plans from table sizes alone, and two statements over a fresh 200,000-cell
 * run went from under a second to minutes (a run's max(seq) took 114 s; a cancel once stalled
 * 182 s). ANALYZE samples 30,000 rows: a few hundred milliseconds. Postgres servers analyze on
 * their own. Needs the connection's own role (the table's owner), so never inside asUser.
 */
export async function analyzeRunCells(db: Database): Promise<void> {
  if (db.kind !== "pglite") return;
  await db.query("analyze run_cells");
}
