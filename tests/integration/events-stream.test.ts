import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as eventsRoute } from "@/app/api/v1/runs/[id]/events/route";
import { readAccessConfig } from "@/lib/auth/access-config";
import { createAccessToken } from "@/lib/auth/access-tokens";
import { localUserId } from "@/lib/auth/local-user";
import { asUser } from "@/lib/db/as-user";
import { createNotificationHub, type NotificationHub } from "@/lib/realtime/notification-hub";
import { streamFailedMessage } from "@/lib/realtime/run-event-stream";
import { maxStreamsPerUser, runEventStreamSlots } from "@/lib/realtime/stream-slots";
import type { AppContext } from "@/lib/server/context";
import { createPgliteTestDatabase, userB, waitFor, type TestDatabase } from "../helpers/databases";

// The route handler finds the database through the process's app context; this file gives it its
// own PGlite. Requests without a token come from the local user; user B signs in with a token.
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

describe("run events stream", () => {
  let test: TestDatabase;
  let notifications: NotificationHub;
  let runOfLocalUser: string;
  let runOfB: string;
  let tokenOfB: string;

  // A paused run stays open: its stream waits for changes until the client leaves.
  const pausedRun = (userId: string) =>
    asUser(
      test.db,
      userId,
      async (tx) => (await tx.query<{ id: string }>("insert into runs (status) values ('paused') returning id")).rows[0].id,
    );

  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    notifications = await createNotificationHub(test.db);
    contextStore.__parallaxrContext = Promise.resolve({ db: test.db, notifications, access: readAccessConfig({}) } as AppContext);
    runOfLocalUser = await pausedRun(localUserId);
    runOfB = await pausedRun(userB);
    tokenOfB = (await createAccessToken(test.db, { userId: userB, name: "events test" })).token;
  });
  afterAll(async () => {
    contextStore.__parallaxrContext = undefined;
    await notifications?.close();
    await test?.drop();
  });

  function open(runId: string, { token, signal }: { token?: string; signal?: AbortSignal } = {}) {
    const headers = token ? { authorization: `Bearer ${token}` } : undefined;
    return eventsRoute(new Request(`http://test/api/v1/runs/${runId}/events`, { headers, signal }), {
      params: Promise.resolve({ id: runId }),
    });
  }

  /** The first chunk a stream sends: proof that it is open and serving. */
  async function firstChunk(response: Response): Promise<string> {
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    return new TextDecoder().decode(value);
  }

  it(`holds at most ${maxStreamsPerUser} open streams per user: one more is a 429 until one closes`, async () => {
    const clients = Array.from({ length: maxStreamsPerUser }, () => new AbortController());
    const streams = await Promise.all(clients.map((client) => open(runOfLocalUser, { signal: client.signal })));
    try {
      expect(streams.map((response) => response.status)).toEqual(Array(maxStreamsPerUser).fill(200));
      expect(await firstChunk(streams[0])).toContain("retry:");

      const refused = await open(runOfLocalUser);
      expect(refused.status).toBe(429);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("too_many_requests");
      expect(body.error.message).toMatch(/close other tabs/i);

      // another user's streams are counted apart
      const other = new AbortController();
      const ofB = await open(runOfB, { token: tokenOfB, signal: other.signal });
      expect(ofB.status).toBe(200);
      other.abort();

      // a client that leaves gives its slot back
      clients[0].abort();
      const replacement = new AbortController();
      clients.push(replacement);
      const reopened = await waitFor(
        async () => {
          const response = await open(runOfLocalUser, { signal: replacement.signal });
          return response.status === 200 ? response : null;
        },
        { what: "a slot to free after a client left" },
      );
      expect(await firstChunk(reopened)).toContain("retry:");
    } finally {
      for (const client of clients) client.abort();
    }
    await waitFor(() => runEventStreamSlots.open(localUserId) === 0 && runEventStreamSlots.open(userB) === 0, { what: "every slot back" });
  });

  it("gives the slot back when the stream ends by itself (a run that is not the caller's)", async () => {
    const response = await open(runOfB);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`Run ${runOfB} not found.`);
    await waitFor(() => runEventStreamSlots.open(localUserId) === 0, { what: "the slot back" });
  });

  it("tells the client only that reading failed, and logs the database's error on the server", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    // A real failure of the read: the column the stream's query orders by is gone.
    await test.db.query("alter table run_cells rename column seq to seq_renamed_by_test");
    try {
      const text = await (await open(runOfLocalUser)).text();
      expect(text).toContain("event: error");
      expect(text).toContain(JSON.stringify({ message: streamFailedMessage }));
      expect(text).not.toMatch(/does not exist|seq|column|relation/i);
      const detail = logged.mock.calls
        .flat()
        .map((part) => (part instanceof Error ? part.message : String(part)))
        .join("\n");
      expect(detail).toMatch(/does not exist/);
      expect(detail).toContain(runOfLocalUser);
    } finally {
      await test.db.query("alter table run_cells rename column seq_renamed_by_test to seq");
      logged.mockRestore();
    }
  });
});
