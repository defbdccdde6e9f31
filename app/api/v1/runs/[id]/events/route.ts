import { idParams, runEventsQuerySchema } from "@/lib/api/schemas";
import { createRunEventStream } from "@/lib/realtime/run-event-stream";
import { maxStreamsPerUser, runEventStreamSlots } from "@/lib/realtime/stream-slots";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * Server-Sent Events of the run's cell changes; resumes after Last-Event-ID (or ?after=).
 * ?outputChars=N cuts each cell's output as GET /runs/{id} does. A user holds at most
 * maxStreamsPerUser streams at once; one more is a 429 until another closes.
 */
export const GET = route({ params: idParams("run"), query: runEventsQuerySchema }, async ({ request, caller, params, query, app }) => {
  // EventSource sends Last-Event-ID itself when it reconnects; it wins over the ?after= of the URL.
  const lastEventId = request.headers.get("last-event-id");
  const afterSeq = lastEventId === null ? (query.after ?? 0) : Number.parseInt(lastEventId, 10);
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
    outputChars: query.outputChars ?? null,
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
