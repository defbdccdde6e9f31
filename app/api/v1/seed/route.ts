import { seededSchema } from "@/lib/api/responses";
import { route } from "@/lib/server/route";
import { seedExamples } from "@/lib/services/seed";

export const dynamic = "force-dynamic";

/** First load: an example prompt, grader, dataset and the mock models, once per user. */
export const POST = route({ output: seededSchema }, ({ caller, app }) => seedExamples(app, { userId: caller.userId }));
