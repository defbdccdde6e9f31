import type { Queryable } from "../database";

/** What deleting a dataset did: removed it, or kept its rows for the runs that used it. */
export type DatasetDeletion = "deleted" | "kept-for-runs";

/**
 * Deletes one of the caller's listed datasets, and takes it off the workbench if it was active.
 * A dataset a run used only leaves the list (deleted_at): the run's grid, history and export
 * read its rows, and runs.dataset_id would otherwise be set to null. Other datasets are deleted
 * with their rows (on delete cascade). Null when there is none by that id (RLS hides others').
 */
export async function deleteDataset(tx: Queryable, { id }: { id: string }): Promise<DatasetDeletion | null> {
  const kept = await tx.query(
    `update datasets set deleted_at = now()
      where id = $1 and deleted_at is null and source in ('upload', 'manual')
        and exists (select 1 from runs where runs.dataset_id = datasets.id)
      returning id`,
    [id],
  );
  const deleted =
    kept.rows.length > 0
      ? null
      : await tx.query("delete from datasets where id = $1 and deleted_at is null and source in ('upload', 'manual') returning id", [id]);
  if (kept.rows.length === 0 && deleted?.rows.length === 0) return null;
  await tx.query("update workbench_state set dataset_id = null, updated_at = now() where dataset_id = $1", [id]);
  return kept.rows.length > 0 ? "kept-for-runs" : "deleted";
}
