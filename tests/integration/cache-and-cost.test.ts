import { describe, expect, it } from "vitest";
import { asUser, readAsUser } from "@/lib/db/as-user";
import { clearResponseCache } from "@/lib/db/cache/response-cache";
import { listUserPrices, recordFetchedPrices } from "@/lib/db/pricing/pricing";
import { listCellChanges } from "@/lib/db/cells/list-cell-changes";
import { getRun, getRunCell, rerunCell } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { TextProvider } from "@/lib/providers/types";
import type { CreateRunInput } from "@/lib/api/schemas";
import { userA, userB, waitFor } from "../helpers/databases";
import { pgliteEngine, runToEnd as runRunToEnd } from "../helpers/engine";

// A provider of our own that the shipped price list does not know, answering with real usage.
const acme: TextProvider = {
  id: "acme",
  kind: "text",
  listModels: async () => [],
  generate: async ({ prompt }) => ({
    text: `acme says ${prompt}`,
    tokensIn: 1000,
    tokensOut: 500,
    tokensEstimated: false,
    finishReason: "stop",
    warnings: [],
  }),
};

// A provider that knows its windows: "tiny" holds 10 tokens, "vast" a million, "mystery" unknown.
const windowed: TextProvider = {
  id: "windowed",
  kind: "text",
  listModels: async () => [],
  contextWindow: async (model) => ({ tiny: 10, vast: 1_000_000 })[model] ?? null,
  generate: async ({ prompt }) => {
    windowedCalls.push(prompt);
    return { text: "fits", tokensIn: 5, tokensOut: 1, tokensEstimated: false, finishReason: "stop", warnings: [] };
  },
};
const windowedCalls: string[] = [];

describe("response cache, re-runs and cost", () => {
  const calls: string[] = [];
  const mock = createMockProvider({ onCall: ({ prompt }) => calls.push(prompt) });
  const providers = createProviderRegistry([mock, acme, windowed]);

  const test = pgliteEngine(providers);

  const runToEnd = (userId: string, input: CreateRunInput) => runRunToEnd({ db: test.db, providers }, { userId, input });
  const input = (prompt: string): CreateRunInput => ({
    prompt,
    rows: Array.from({ length: 5 }, (_, n) => ({ n: String(n) })),
    models: [{ provider: "mock", model: "echo", params: { latencyMs: 30, jitterMs: 0 } }],
  });

  it("answers a repeated input from the cache: no call, no cost, the original tokens and latency", async () => {
    const first = await runToEnd(userA, input("cache me {{n}}"));
    expect(calls.filter((prompt) => prompt.startsWith("cache me"))).toHaveLength(5);
    expect(first.cells.map((cell) => [cell.status, cell.cached])).toEqual(Array(5).fill(["ok", false]));

    const second = await runToEnd(userA, input("cache me {{n}}"));
    expect(calls.filter((prompt) => prompt.startsWith("cache me"))).toHaveLength(5);
    for (const cell of second.cells) {
      const original = first.cells.find((c) => c.row === cell.row)!;
      expect(cell).toMatchObject({
        status: "ok",
        cached: true,
        costUsd: 0,
        output: original.output,
        tokensIn: original.tokensIn,
        latencyMs: original.latencyMs,
      });
    }
  });

  it("completes a run with the same model in two columns, whose answers share cache keys", async () => {
    // Both columns' answers to a row arrive in one save; the cache keeps one of them.
    const run = await runToEnd(userA, {
      prompt: "twice {{n}}",
      rows: Array.from({ length: 4 }, (_, n) => ({ n: String(n) })),
      models: [
        { provider: "mock", model: "fast" },
        { provider: "mock", model: "fast" },
      ],
    });
    expect(run.cells.map((cell) => cell.status)).toEqual(Array(8).fill("ok"));
    const cached = await test.db.query<{ n: number }>(
      "select count(*)::int as n from response_cache r left join run_cells c on c.id = r.cell_id where r.user_id = $1 and coalesce(r.output_raw, c.output_raw) like '%twice%'",
      [userA],
    );
    expect(cached.rows[0].n).toBe(4);
  });

  it("keeps each user's cache to themselves", async () => {
    const other = await runToEnd(userB, input("cache me {{n}}"));
    expect(other.cells.map((cell) => [cell.status, cell.cached])).toEqual(Array(5).fill(["ok", false]));
    expect(calls.filter((prompt) => prompt.startsWith("cache me"))).toHaveLength(10);
  });

  it("a re-run of one cell bypasses the cache and overwrites it; the run completes again", async () => {
    const run = await runToEnd(userA, input("cache me {{n}}"));
    const target = run.cells.find((cell) => cell.row === 2)!;
    expect(target.cached).toBe(true);
    const before = calls.length;
    await rerunCell({ db: test.db }, { userId: userA, runId: run.id, cellId: target.id });
    const after = await waitFor(
      async () => {
        const current = await getRun({ db: test.db }, { userId: userA, runId: run.id });
        return current.status === "completed" ? current : null;
      },
      { what: "the re-run to complete" },
    );
    expect(calls.length).toBe(before + 1);
    expect(after.cells.find((cell) => cell.row === 2)).toMatchObject({ status: "ok", cached: false, attempts: 1 });
    await expect(rerunCell({ db: test.db }, { userId: userB, runId: run.id, cellId: target.id })).rejects.toThrow(/not found/);
  });

  it("does not use expired entries, nor any after the cache is cleared, nor with cache: false", async () => {
    // a cache row reads its answer from the cell it names (0022_smaller_cells.sql)
    await test.db.query(
      `update response_cache r set expires_at = now() - interval '1 second'
         from run_cells c where c.id = r.cell_id and c.output_raw like '%cache me 0%'`,
    );
    const expired = await runToEnd(userA, input("cache me {{n}}"));
    expect(expired.cells.find((cell) => cell.row === 0)!.cached).toBe(false);
    expect(expired.cells.find((cell) => cell.row === 1)!.cached).toBe(true);

    const off = await runToEnd(userA, { ...input("cache me {{n}}"), cache: false });
    expect(off.cells.map((cell) => [cell.status, cell.cached])).toEqual(Array(5).fill(["ok", false]));

    expect(await asUser(test.db, userA, (tx) => clearResponseCache(tx))).toBeGreaterThan(0);
    const cleared = await runToEnd(userA, input("cache me {{n}}"));
    expect(cleared.cells.map((cell) => [cell.status, cell.cached])).toEqual(Array(5).fill(["ok", false]));
  });

  it("prices answers from the user's price list, else the shipped reference; unpriced is null with a warning", async () => {
    const free = await runToEnd(userA, input("free {{n}}"));
    expect(free.cells.map((cell) => [cell.status, cell.costUsd])).toEqual(Array(5).fill(["ok", 0]));

    await asUser(test.db, userA, (tx) =>
      tx.query("insert into pricing (provider, model, input_per_mtok, output_per_mtok) values ('acme', 'anvil', 2, 8)"),
    );
    const priced = await runToEnd(userA, { ...input("priced {{n}}"), models: [{ provider: "acme", model: "anvil" }] });
    // 1000 tokens in at $2/M + 500 out at $8/M
    expect(priced.cells).toHaveLength(5);
    for (const cell of priced.cells) expect(cell.costUsd).toBeCloseTo(0.006, 10);

    const unpriced = await runToEnd(userB, { ...input("unpriced {{n}}"), models: [{ provider: "acme", model: "anvil" }] });
    expect(unpriced.cells.map((cell) => [cell.status, cell.costUsd])).toEqual(Array(5).fill(["warning", null]));
    for (const cell of unpriced.cells) expect(cell.warnings.join(" ")).toContain("No price for acme/anvil");
  });

  it("refuses an input over the context window before calling, and warns when the window is unknown", async () => {
    const run = await runToEnd(userA, {
      prompt: "A prompt long enough to need more than ten tokens of context: {{n}}",
      rows: [{ n: "1" }],
      models: [
        { provider: "windowed", model: "tiny" },
        { provider: "windowed", model: "vast" },
        { provider: "windowed", model: "mystery" },
      ],
      cache: false,
    });
    const [tiny, vast, mystery] = [0, 1, 2].map((column) => run.cells.find((cell) => cell.column === column)!);
    expect(tiny).toMatchObject({ status: "error", errorCode: "context_overflow", attempts: 1 });
    expect(tiny.error).toContain("10-token context window of tiny");
    expect(vast.status).not.toBe("error");
    expect(mystery.warnings).toContain("Context window unknown for model mystery");
    // the model that could not fit was never called
    expect(windowedCalls).toHaveLength(2);
  });

  it("stores a column's warnings as codes in each cell, and every reader spells them out with its model", async () => {
    const run = await runToEnd(userB, {
      prompt: "Column warnings {{n}}",
      rows: [{ n: "1" }, { n: "2" }],
      models: [{ provider: "windowed", model: "mystery" }],
      cache: false,
    });
    // windowed/mystery has neither a known window nor a price
    const spelled = [
      "Context window unknown for model mystery",
      "No price for windowed/mystery: the cost is unknown (not 0). Set one in Settings -> Prices.",
    ];
    expect(run.cells.map((cell) => [cell.status, cell.warnings])).toEqual([
      ["warning", spelled],
      ["warning", spelled],
    ]);
    const stored = await test.db.query<{ warnings: string[] }>("select warnings from run_cells where run_id = $1", [run.id]);
    expect(stored.rows.map((row) => row.warnings)).toEqual([
      ["@window-unknown", "@no-price"],
      ["@window-unknown", "@no-price"],
    ]);
    // one cell in full, and the events stream's reader
    expect((await getRunCell({ db: test.db }, { userId: userB, runId: run.id, cellId: run.cells[0].id })).warnings).toEqual(spelled);
    // (as the stream reads them: every statement sent at once, readAsUser)
    const changes = await readAsUser(test.db, userB, (tx) => listCellChanges(tx, { runId: run.id, afterSeq: 0 }));
    expect(changes.map((cell) => cell.warnings)).toEqual([spelled, spelled]);
  });

  it("prices runs by a vendor's fetched prices, which never replace a price the user set", async () => {
    const userE = "00000000-0000-4000-8000-00000000000e";
    await asUser(test.db, userE, (tx) =>
      tx.query("insert into pricing (provider, model, input_per_mtok, output_per_mtok) values ('acme', 'mine', 1, 1)"),
    );
    await asUser(test.db, userE, (tx) =>
      recordFetchedPrices(tx, {
        source: "openrouter",
        prices: [
          { provider: "acme", model: "listed", inputPerMTok: 4, outputPerMTok: 8 },
          { provider: "acme", model: "mine", inputPerMTok: 99, outputPerMTok: 99 },
        ],
      }),
    );
    const run = await runToEnd(userE, {
      prompt: "fetched {{n}}",
      rows: [{ n: "1" }],
      models: [
        { provider: "acme", model: "listed" },
        { provider: "acme", model: "mine" },
      ],
      cache: false,
    });
    // acme answers 1000 tokens in and 500 out
    expect(run.cells.find((cell) => cell.column === 0)!.costUsd).toBeCloseTo((1000 * 4 + 500 * 8) / 1e6, 10);
    expect(run.cells.find((cell) => cell.column === 1)!.costUsd).toBeCloseTo((1000 + 500) / 1e6, 10);
    // Settings -> Prices lists the user's own prices only
    expect((await asUser(test.db, userE, (tx) => listUserPrices(tx))).map((price) => price.model)).toEqual(["mine"]);
  });
});
