import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localUserId } from "@/lib/auth/local-user";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { createNotificationHub, type NotificationHub } from "@/lib/realtime/notification-hub";
import { createRunEventStream } from "@/lib/realtime/run-event-stream";
import { createPgliteTestDatabase, waitFor, type TestDatabase } from "../helpers/databases";

// When a run's last cells and its end commit together, the stream sends the cells and run-end from
// one read. It used to send the cells, wait its 40 ms between reads and read again for run-end: a
// client following the run (the CLI, a script, the page) heard of the end that much later. And a
// read that finds nothing new (a notice of a change already sent) reads no summary, which
// aggregates over every cell of the run: a tenth of PGlite's time in a 64-wide run went there.
describe("run events stream: the end of a run, and the summary's reads", () => {
  let test: TestDatabase;
  let notifications: NotificationHub;

  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    notifications = await createNotificationHub(test.db);
  });
  afterAll(async () => {
    await notifications?.close();
    await test?.drop();
  });

  const runningRun = () =>
    asUser(test.db, localUserId, async (tx) => {
      const runId = (await tx.query<{ id: string }>("insert into runs (status) values ('running') returning id")).rows[0].id;
      const columnId = (
        await tx.query<{ id: string }>(
          "insert into run_columns (run_id, column_index, provider, model) values ($1, 0, 'mock', 'echo') returning id",
          [runId],
        )
      ).rows[0].id;
      const { rows } = await tx.query<{ id: string }>(
        "insert into run_cells (run_id, column_id, column_index, row_index, status) select $1, $2, 0, i, 'running' from generate_series(0, 2) i returning id",
        [runId, columnId],
      );
      return { runId, cellIds: rows.map((row) => row.id) };
    });

  /** The stream of a run on a database that counts its reads (of new cells) and summaries read. */
  function follow(runId: string, signal = new AbortController().signal, minReadIntervalMs?: number) {
    const counts = { reads: 0, summaries: 0 };
    const counted: Database = {
      ...test.db,
      // its reads go to the database as batches: none holds PGlite's connection across this thread's turns
      transaction: () => Promise.reject(new Error("the events stream opened a transaction")),
      batch: (statements) => {
        if (statements.some(({ sql }) => /from run_cells\s+where run_id = \$1 and seq > \$2/.test(sql))) counts.reads++;
        if (statements.some(({ sql }) => /^\s*select r\.id, r\.kind, r\.status/.test(sql))) counts.summaries++;
        return test.db.batch(statements);
      },
    };
    const stream = createRunEventStream({ db: counted, notifications, userId: localUserId, runId, afterSeq: 0, signal, minReadIntervalMs });
    return { reader: stream.getReader(), counts };
  }

  it("sends the last cells and run-end from the same read", async () => {
    const { runId, cellIds } = await runningRun();
    const { reader, counts } = follow(runId);
    let text = "";
    // the first read: the three running cells and the run's summary
    while ((text.match(/event: run-update/g) ?? []).length < 1) text += new TextDecoder().decode((await reader.read()).value);
    expect(counts.reads).toBe(1);

    await asUser(test.db, localUserId, async (tx) => {
      await tx.query("update run_cells set status = 'ok', output_raw = 'done', finished_at = now() where id = any($1::uuid[])", [cellIds]);
      await tx.query("update runs set status = 'completed', finished_at = now() where id = $1", [runId]);
    });
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);

    expect(text.match(/event: cell-update/g)).toHaveLength(6);
    expect(text).toMatch(/event: run-end\ndata: \{[^\n]*"status":"completed"/);
    expect(counts.reads).toBe(2);
  });

  it("sends what one read found as one chunk: its cells, the run's summary and its end", async () => {
    const { runId, cellIds } = await runningRun();
    const { reader } = follow(runId);
    const decode = (value: Uint8Array | undefined) => new TextDecoder().decode(value);
    expect(decode((await reader.read()).value)).toBe("retry: 1000\n\n");
    // The first read: three cells and the summary, in one chunk (a chunk per event was a write
    // each on the server and a task each on a browser's main thread).
    const first = decode((await reader.read()).value);
    expect(first.match(/event: cell-update/g)).toHaveLength(3);
    expect(first).toMatch(/event: run-update\n/);

    await asUser(test.db, localUserId, async (tx) => {
      await tx.query("update run_cells set status = 'ok', output_raw = 'done', finished_at = now() where id = any($1::uuid[])", [cellIds]);
      await tx.query("update runs set status = 'completed', finished_at = now() where id = $1", [runId]);
    });
    const last = decode((await reader.read()).value);
    expect(last.match(/event: cell-update/g)).toHaveLength(3);
    expect(last).toMatch(/event: run-update\n[^\n]*\n\nevent: run-end\ndata: \{[^\n]*"status":"completed"/);
    expect((await reader.read()).done).toBe(true);
  });

  it("reads no summary for a notice of nothing new, and at once for a change of the run's status", async () => {
    const { runId } = await runningRun();
    const stop = new AbortController();
    const { reader, counts } = follow(runId, stop.signal);
    let text = "";
    while (!text.includes("event: run-update")) text += new TextDecoder().decode((await reader.read()).value);
    expect(counts).toEqual({ reads: 1, summaries: 1 });

    // a notice whose change was already sent: a read, no summary
    await test.db.query("select pg_notify('parallaxr_cells', json_build_object('runId', $1::uuid, 'status', 'running')::text)", [runId]);
    await waitFor(() => counts.reads === 2);
    expect(counts.summaries).toBe(1);

    // paused: the summary at once, whatever its interval
    await asUser(test.db, localUserId, (tx) => tx.query("update runs set status = 'paused' where id = $1", [runId]));
    while (!/"status":"paused"/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    expect(counts.summaries).toBe(2);
    stop.abort();
  });

  it("reads a change of the run's status at once, not after the least time between reads", async () => {
    const { runId, cellIds } = await runningRun();
    // Reads while cells change are at most one a minute here: only a run's notice may cut that short.
    const { reader, counts } = follow(runId, new AbortController().signal, 60_000);
    let text = "";
    while (!text.includes("event: run-update")) text += new TextDecoder().decode((await reader.read()).value);
    expect(counts.reads).toBe(1);

    // As a worker ends a run: its last cells saved, then the run's status in a statement of its own.
    await asUser(test.db, localUserId, (tx) =>
      tx.query("update run_cells set status = 'ok', output_raw = 'done', finished_at = now() where id = any($1::uuid[])", [cellIds]),
    );
    await asUser(test.db, localUserId, (tx) =>
      tx.query("update runs set status = 'completed', finished_at = now() where id = $1", [runId]),
    );
    const started = Date.now();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    expect(text.match(/event: cell-update/g)).toHaveLength(6);
    expect(text).toMatch(/event: run-end\ndata: \{[^\n]*"status":"completed"/);
    expect(counts.reads).toBe(2);
    // (before, the stream waited out the minute: the test's own timeout failed it)
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("sends run-end with the last call of a cancelled run that was still in flight", async () => {
    const { runId, cellIds } = await runningRun();
    // cancelled while one call was still out: the others cancelled, that one left to end
    await asUser(test.db, localUserId, async (tx) => {
      await tx.query("update runs set status = 'cancelled' where id = $1", [runId]);
      await tx.query("update run_cells set status = 'cancelled', finished_at = now() where id = any($1::uuid[])", [cellIds.slice(1)]);
    });
    const { reader, counts } = follow(runId);
    let text = "";
    while (!text.includes("event: run-update")) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).not.toContain("event: run-end");
    expect(counts.reads).toBe(1);

    await asUser(test.db, localUserId, (tx) =>
      tx.query("update run_cells set status = 'ok', output_raw = 'paid for', finished_at = now() where id = $1", [cellIds[0]]),
    );
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    expect(text).toMatch(/event: run-end\ndata: \{[^\n]*"status":"cancelled"/);
    expect(counts.reads).toBe(2);
  });
});
