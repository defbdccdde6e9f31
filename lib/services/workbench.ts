import type { z } from "zod";
import type { updateWorkbenchSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { getWorkbenchState, updateWorkbenchState, type WorkbenchState } from "@/lib/db/workbench/workbench-state";
import { NotFoundError } from "@/lib/engine/errors";

/** userId's workbench setup: active prompt, dataset, grader and model columns. */
export function getWorkbench({ db }: { db: Database }, { userId }: { userId: string }): Promise<WorkbenchState> {
  return asUser(db, userId, (tx) => getWorkbenchState(tx));
}

/** Changes part of userId's setup; ids must name their own prompts and datasets (else a 404 naming the field). */
export async function updateWorkbench(
  { db }: { db: Database },
  { userId, change }: { userId: string; change: z.infer<typeof updateWorkbenchSchema> },
): Promise<WorkbenchState> {
  const result = await asUser(db, userId, (tx) => updateWorkbenchState(tx, change));
  if ("invisible" in result) {
    throw new NotFoundError(
      `${result.invisible}: no such ${result.invisible === "datasetId" ? "dataset" : "prompt"} of yours.`,
      result.invisible,
    );
  }
  return result.state;
}
