import { createRunSchema } from "@/lib/api/schemas";
import { createRun } from "@/lib/engine/create-run";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** Creates a run and queues its cells: 201 with the run. */
export const POST = route({ body: createRunSchema, status: 201 }, async ({ caller, body, app }) => {
  const run = await createRun(app, { userId: caller.userId, input: body });
  return { ...run, cells: [] as unknown[] };
});
