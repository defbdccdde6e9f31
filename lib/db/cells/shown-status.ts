/**
 * SQL: a cell's status as the API and the pages show it. A cell a worker claimed ahead and holds
 * until one of the run's calls ends (held, 0023_claim_ahead_on_a_server.sql) is stored as running,
 * so that the caps count it, but its call has not started: it is shown as queued until it does
 * (a run at concurrency 1 showed two cells running). Its start is a change followers are sent
 * (run_cells_touch, 0030_held_cells_shown_queued.sql). held is left set on a cell given back
 * (releaseCells), which is queued or cancelled then. alias is the table's, with its dot ("c.") or
 * empty.
 *
 * runStatus, the SQL of the run's status where the reader has it, keeps a held cell of a run that
 * was paused, cancelled or failed running until its worker gives it back: the worker alone knows
 * whether its call started (its start is written up to 100 ms later), so such a cell is not
 * settled yet, and "nothing running" is what a follower of a stopped run waits for.
 */
export function shownStatusSql(alias = "", runStatus?: string): string {
  const whileRunning = runStatus ? ` and ${runStatus} in ('queued', 'running')` : "";
  return `(case when ${alias}status = 'running' and ${alias}held${whileRunning} then 'queued' else ${alias}status end)`;
}

/**
 * SQL: when a cell's call started, as shown: none for a cell shown queued while it is stored as
 * running (held ahead: the time of its claim is not a start). Same arguments as shownStatusSql.
 */
export function shownStartedAtSql(alias = "", runStatus?: string): string {
  return `(case when ${shownStatusSql(alias, runStatus)} = ${alias}status then ${alias}started_at end)`;
}
