import { z } from "zod";
import { asUser } from "@/lib/db/as-user";
import { getDatasetWithRows } from "@/lib/db/datasets/get-dataset-with-rows";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const params = z.strictObject({ id: z.uuid({ message: "dataset id must be a UUID" }) });
const query = z.strictObject({ limit: z.coerce.number().int().min(1).max(100_000).default(50) });

/** One of the caller's datasets with its first `limit` rows (?limit=, default 50). */
export const GET = route({ params }, async ({ request, caller, params, app }) => {
  const { limit } = query.parse({ limit: new URL(request.url).searchParams.get("limit") ?? undefined });
  const dataset = await asUser(app.db, caller.userId, (tx) => getDatasetWithRows(tx, { id: params.id, limit }));
  if (!dataset) throw new HttpError("not_found", `Dataset ${params.id} not found.`);
  return dataset;
});
