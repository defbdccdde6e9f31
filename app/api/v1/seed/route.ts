import { seededSchema } from "@/lib/api/responses";
import { asUser } from "@/lib/db/as-user";
import { seedExamples } from "@/lib/engine/seed-examples";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** First load: an example prompt, grader, dataset and the mock models, once per user. */
export const POST = route({ output: seededSchema }, async ({ caller, app }) => asUser(app.db, caller.userId, (tx) => seedExamples(tx)));
