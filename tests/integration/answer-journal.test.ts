import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import type { Database } from "@/lib/db/database";
import { openAnswerJournal, readLeftAnswers } from "@/lib/engine/answer-journal";
import { createRun } from "@/lib/engine/create-run";
import { startWorker } from "@/lib/engine/worker";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { TextProvider } from "@/lib/providers/types";
import { getRun } from "@/lib/services/runs";
import { createPgliteTestDatabase, userA, waitFor, type TestDatabase } from "../helpers/databases";

const folders: string[] = [];
function newFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "parallaxr-journal-"));
  folders.push(folder);
  return folder;
}
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const result = (id: string, text = `answer ${id}`): CellResult => ({ id, runId: "run", status: "ok", outputRaw: text });

describe("the answer journal (lib/engine/answer-journal.ts)", () => {
  it("keeps an answer until it is saved, then names it saved; empties itself when nothing waits", () => {
    const folder = newFolder();
    const journal = openAnswerJournal(folder);
    const [first, second] = [result("a"), result("b")];
    journal.append(first);
    journal.append(second);
    expect(readLeftAnswers(folder).map((left) => left.id)).toEqual(["a", "b"]);
    journal.saved([first]);
    expect(readLeftAnswers(folder).map((left) => left.id)).toEqual(["b"]);
    journal.saved([second]);
    expect(readLeftAnswers(folder)).toEqual([]);
    expect(readFileSync(path.join(folder, "answers.jsonl"), "utf8")).toBe("");
  });

  it("restores a re-run cell's newer answer, never the older one it saved before", () => {
    const folder = newFolder();
    const journal = openAnswerJournal(folder);
    const [kept, older] = [result("k"), result("x", "before the re-run")];
    journal.append(kept);
    journal.append(older);
    journal.saved([older]);
    // x is re-run; its new call is in flight when the process dies: nothing of x is to be restored
    expect(readLeftAnswers(folder)).toEqual([kept]);
    journal.append(result("x", "after the re-run"));
    expect(readLeftAnswers(folder)).toEqual([kept, result("x", "after the re-run")]);
  });

  it("is rewritten with only what waits once it grows past its size", () => {
    const folder = newFolder();
    const journal = openAnswerJournal(folder, { compactAtBytes: 4_000 });
    const waiting = result("w");
    journal.append(waiting);
    const big = Array.from({ length: 10 }, (_, n) => result(`big${n}`, "x".repeat(1_000)));
    for (const entry of big) journal.append(entry);
    journal.saved(big);
    expect(readFileSync(path.join(folder, "answers.jsonl"), "utf8")).toBe(`${JSON.stringify(waiting)}\n`);
    expect(readLeftAnswers(folder)).toEqual([waiting]);
    // appends go on in the rewritten file
    journal.append(result("after"));
    expect(readLeftAnswers(folder).map((left) => left.id)).toEqual(["w", "after"]);
  });

  it("reads back what a killed process left: the last line per cell, a line cut short skipped", () => {
    const folder = newFolder();
    const journal = openAnswerJournal(folder);
    journal.append(result("a", "first try"));
    journal.append(result("a", "second try"));
    journal.append(result("b"));
    appendFileSync(path.join(folder, "answers.jsonl"), JSON.stringify(result("c")).slice(0, 20));
    expect(readLeftAnswers(folder)).toEqual([result("a", "second try"), result("b")]);
  });
});

/**
 * A database as a killed process leaves it: once died() is called, nothing more reaches it (every
 * statement hangs); statements matching `withheld` never reach it at all.
 */
function killable(db: Database, withheld: RegExp) {
  let dead = false;
  let gone = false;
  const hung: Array<(error: Error) => void> = [];
  const hang = <T>() =>
    new Promise<T>((_, reject) => {
      if (gone) reject(new Error("the process is gone"));
      else hung.push(reject);
    });
  const wrapped: Database = {
    ...db,
    query: (sql, params) => (dead || withheld.test(sql) ? hang() : db.query(sql, params)),
    exec: (sql) => (dead ? hang() : db.exec(sql)),
    transaction: (fn) => (dead ? hang() : db.transaction(fn)),
    listen: (channel, onPayload) => db.listen(channel, onPayload),
    close: async () => {},
  };
  return {
    db: wrapped,
    died() {
      dead = true;
    },
    /** Ends the hung statements (as errors) so the dead worker's own timers can be stopped. */
    release() {
      gone = true;
      for (const reject of hung.splice(0)) reject(new Error("the process is gone"));
    },
  };
}

describe("answers paid for before a crash", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createPgliteTestDatabase();
  });
  afterAll(async () => {
    await test.drop();
  });

  // Each test's "processes" share this one: its own provider name keeps the per-process state
  // of the first test's dead worker (its calls' place under the provider's limits) out of the next.
  let crashes = 0;

  async function crashAfterAnswers({ journal }: { journal: boolean }) {
    const journalDir = journal ? newFolder() : undefined;
    const provider = `answer-${++crashes}`;
    const calls: string[] = [];
    const answering = (who: string): TextProvider => ({
      id: provider,
      kind: "text",
      listModels: async () => [],
      async generate(request) {
        calls.push(`${who}:${request.prompt}`);
        return {
          text: `${who} answers ${request.prompt}`,
          tokensIn: 1,
          tokensOut: 1,
          tokensEstimated: false,
          finishReason: "stop",
          warnings: [],
        };
      },
    });
    // The first process: its answers arrive, its saves never reach the database, then it dies.
    const first = killable(test.db, /parallaxr_save/);
    const firstProviders = createProviderRegistry([answering("first")]);
    const run = await createRun(
      { db: test.db, providers: firstProviders },
      {
        userId: userA,
        input: {
          prompt: "row {{n}}",
          rows: Array.from({ length: 12 }, (_, n) => ({ n: String(n) })),
          models: [{ provider, model: "any" }],
          concurrency: 2,
        },
      },
    );
    const dying = await startWorker({
      db: first.db,
      providers: firstProviders,
      pollMs: 20,
      claimAhead: true,
      journalDir,
      onError: () => {},
    });
    // both calls of the first claim answered, neither answer saved (the save is what never arrives)
    await waitFor(() => (calls.length >= 2 ? true : null), { what: "two answers in the first process" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.died();
    const paidBefore = calls.filter((call) => call.startsWith("first:")).map((call) => call.slice("first:".length));

    // The next process on the folder.
    const providers = createProviderRegistry([answering("next")]);
    const next = await startWorker({
      db: test.db,
      providers,
      pollMs: 20,
      reclaimOnStart: true,
      claimAhead: true,
      journalDir,
      onError: () => {},
    });
    try {
      await waitFor(async () => ((await getRun({ db: test.db }, { userId: userA, runId: run.id })).status === "completed" ? true : null), {
        what: "the run to complete in the next process",
      });
    } finally {
      await next.stop();
      first.release();
      await dying.stop({ graceMs: 0 });
    }
    const { rows } = await test.db.query<{ output_raw: string }>("select output_raw from run_cells where run_id = $1 order by row_index", [
      run.id,
    ]);
    const paidAgain = calls.filter((call) => call.startsWith("next:") && paidBefore.includes(call.slice("next:".length)));
    return { paidBefore, paidAgain, outputs: rows.map((row) => row.output_raw), journalDir };
  }

  it("are saved by the next process from the journal, not paid for again", async () => {
    const { paidBefore, paidAgain, outputs, journalDir } = await crashAfterAnswers({ journal: true });
    expect(paidBefore).toHaveLength(2);
    expect(paidAgain).toEqual([]);
    for (const prompt of paidBefore) expect(outputs).toContain(`first answers ${prompt}`);
    expect(outputs.filter((output) => output.startsWith("next answers"))).toHaveLength(10);
    expect(readLeftAnswers(journalDir!)).toEqual([]);
  });

  it("without the journal, the same crash pays for them again (the control)", async () => {
    const { paidBefore, paidAgain } = await crashAfterAnswers({ journal: false });
    expect(paidBefore).toHaveLength(2);
    expect(paidAgain.map((call) => call.slice("next:".length))).toEqual(paidBefore);
  });
});
