import { z } from "zod";
import { createRunEventStream } from "@/lib/realtime/run-event-stream";
import { maxStreamsPerUser, runEventStreamSlots } from "@/lib/realtime/stream-slots";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const params = z.strictObject({ id: z.uuid({ message: "run id must be a UUID" }) });
const query = z.strictObject({
  outputChars: z.coerce.number({ message: "outputChars must be a number" }).int().min(1).max(1_000_000).optional(),
});

/**
 * Server-Sent Events of the run's cell changes; resumes after Last-Event-ID (or ?after=).
 * ?outputChars=N cuts each cell's output as GET /runs/{id} does. A user holds at most
 * maxStreamsPerUser streams at once; one more is a 429 until another closes.
 */
export const GET = route({ params }, async ({ request, caller, params, app }) => {
  const url = new URL(request.url);
  const cursor = request.headers.get("last-event-id") ?? url.searchParams.get("after") ?? "0";
  const afterSeq = Number.parseInt(cursor, 10);
  const { outputChars } = query.parse({ outputChars: url.searchParams.get("outputChars") ?? undefined });
  const release = runEventStreamSlots.acquire(caller.userId);
  if (!release) {
    throw new HttpError(
      "too_many_requests",
      `You have ${maxStreamsPerUser} live views of runs open already. Close other tabs or windows that show runs, then reload this one.`,
    );
  }
  const stream = createRunEventStream({
    db: app.db,
    notifications: app.notifications,
    userId: caller.userId,
    runId: params.id,
    afterSeq: Number.isFinite(afterSeq) && afterSeq > 0 ? afterSeq : 0,
    outputChars: outputChars ?? null,
    signal: request.signal,
    onClose: release,
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
