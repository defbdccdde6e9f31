import { createDatasetSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { insertDataset } from "@/lib/db/runs/insert-dataset";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** Stores a dataset from JSON rows; run it with POST /api/v1/runs {"datasetId": ...}. */
export const POST = route({ body: createDatasetSchema, status: 201 }, async ({ caller, body, app }) => {
  const rows = body.rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value == null ? "" : String(value)])),
  );
  const headers = body.headers ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const id = await asUser(app.db, caller.userId, (tx) => insertDataset(tx, { name: body.name, source: "upload", headers, rows }));
  return { id, name: body.name, headers, rowCount: rows.length };
});
