import type { Queryable } from "../database";
import { insertDatasetRows } from "../runs/insert-dataset";

/**
 * Stores an upload as the calling user, once per content: when the user already has a dataset
 * with this content hash, no rows are inserted and that dataset is answered, under the name just
 * uploaded (the file a person just chose is the one they look for), and back in the list if it
 * was deleted while a run kept it. The insert's `on conflict do nothing` against the
 * (user_id, content_hash) unique index makes two uploads of one file at once store it once: the
 * second waits for the first to commit, then finds its row.
 */
export async function storeUploadedDataset(
  tx: Queryable,
  input: { name: string; headers: string[]; rows: Array<Record<string, string>>; contentHash: string },
): Promise<{ id: string; alreadyStored: boolean }> {
  const inserted = await tx.query<{ id: string }>(
    `insert into datasets (name, source, headers, row_count, content_hash) values ($1, 'upload', $2, $3, $4)
     on conflict (user_id, content_hash) where content_hash is not null do nothing
     returning id`,
    [input.name, input.headers, input.rows.length, input.contentHash],
  );
  if (inserted.rows[0]) {
    await insertDatasetRows(tx, { datasetId: inserted.rows[0].id, offset: 0, rows: input.rows });
    return { id: inserted.rows[0].id, alreadyStored: false };
  }
  const { rows } = await tx.query<{ id: string }>(
    `update datasets set deleted_at = null, name = $2
      where content_hash = $1 and user_id = (select auth.uid())
      returning id`,
    [input.contentHash, input.name],
  );
  if (!rows[0]) throw new Error("an upload's content hash conflicted with no dataset the caller can see");
  return { id: rows[0].id, alreadyStored: true };
}
