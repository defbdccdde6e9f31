import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createProviderRegistry, type ProviderRegistry } from "@/lib/providers/registry";
import {
  createPgliteTestDatabase,
  createServerTestDatabase,
  postgresServerAvailable,
  userA,
  type TestDatabase,
} from "../helpers/databases";
import { runToEnd } from "../helpers/engine";
import { TEST_API_KEY, startVendorServer, type VendorServer } from "../helpers/vendor-server";

// A result Postgres will not store must not wedge the worker: before, one such answer made every
// later batch fail, the worker retried it for ever, and no run of anyone's finished again.
//   - Text columns cannot hold U+0000, and jsonb refuses a lone UTF-16 surrogate; both come back
//     from real vendors (a model can emit "\u0000"; a JSON escape can split an emoji).
//   - Anything else the database refuses (here a trigger stands in for the unknown) is tried alone,
//     and a result that fails alone while the database answers is stored as an error that keeps
//     the tokens and cost that were paid for, without the text that could not be stored.

function completion(content: string): string {
  // Built by hand so that the escapes reach the adapter exactly as a vendor sends them.
  return `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"${content}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}`;
}

function describeUnstorable(label: string, create: () => Promise<TestDatabase | null>) {
  describe(`results the database refuses, on ${label}`, () => {
    let test: TestDatabase | null = null;
    let vendor: VendorServer;
    let worker: Worker | null = null;
    let providers: ProviderRegistry;
    const errors: unknown[] = [];

    beforeAll(async () => {
      test = await create();
      if (!test) return;
      vendor = await startVendorServer({ prefix: "/v1" });
      vendor.route("POST /v1/chat/completions", (request) => {
        const prompt = String(request.body.messages.at(-1).content);
        const content = prompt.includes("NUL")
          ? "before\\u0000after"
          : prompt.includes("SPLIT")
            ? "half an emoji \\ud83d here"
            : prompt.includes("POISON")
              ? "POISON in the answer"
              : `fine: ${prompt}`;
        return { headers: { "content-type": "application/json" }, body: completion(content) };
      });
      const openai = providerFactories.openai.create({ apiKey: TEST_API_KEY, baseURL: vendor.baseURL });
      providers = createProviderRegistry([openai]);
      // Stands in for any reason a database may refuse one result: this text cannot be stored.
      await test.db.exec(`
        create function refuse_poison() returns trigger language plpgsql as $$
        begin
          if new.output_raw like '%POISON%' then raise exception 'this output cannot be stored'; end if;
          return new;
        end $$;
        create trigger refuse_poison before update on run_cells for each row execute function refuse_poison();`);
      worker = await startWorker({ db: test.db, providers, pollMs: 20, onError: (error) => errors.push(error) });
    });
    afterAll(async () => {
      await worker?.stop();
      await vendor?.close();
      await test?.drop();
    });

    const runWords = (words: string[]) =>
      runToEnd(
        { db: test!.db, providers },
        {
          userId: userA,
          input: { prompt: "Say {{word}}.", rows: words.map((word) => ({ word })), models: [{ provider: "openai", model: "gpt-4o" }] },
          timeoutMs: 20_000,
        },
      );

    it("stores a NUL and half a surrogate pair as U+FFFD, in the cell and in the cache", async (context) => {
      if (!test) return context.skip();
      const done = await runWords(["NUL", "SPLIT", "plain"]);
      const byRow = done.cells.sort((a, b) => a.row - b.row);
      expect(byRow.map((cell) => cell.status)).toEqual(["ok", "ok", "ok"]);
      expect(byRow[0].output).toBe("before\uFFFDafter");
      expect(byRow[1].output).toBe("half an emoji \uFFFD here");
      expect(byRow[2].output).toBe("fine: Say plain.");

      // The same run again is answered from the cache, with the same text.
      const again = await runWords(["NUL", "SPLIT", "plain"]);
      expect(again.cells.map((cell) => cell.cached)).toEqual([true, true, true]);
      expect(again.cells.sort((a, b) => a.row - b.row)[0].output).toBe("before\uFFFDafter");
    });

    it("stores a result that fails alone as an error with its cost, and goes on with every other", async (context) => {
      if (!test) return context.skip();
      const done = await runWords(["one", "POISON", "three"]);
      const byRow = done.cells.sort((a, b) => a.row - b.row);
      expect(byRow.map((cell) => cell.status)).toEqual(["ok", "error", "ok"]);
      expect(byRow[1].output).toBeNull();
      expect(byRow[1].error).toMatch(/could not be stored.*this output cannot be stored/);
      expect(byRow[1].tokensIn).toBe(12);
      expect(byRow[1].tokensOut).toBe(5);
      // gpt-4o by the shipped reference: $2.50 per million in, $10 out
      expect(byRow[1].costUsd).toBeCloseTo((12 * 2.5 + 5 * 10) / 1e6, 12);
      expect(byRow[2].output).toBe("fine: Say three.");
      expect(errors.some((error) => String(error).includes("this output cannot be stored"))).toBe(true);

      // The worker is not wedged: a later run finishes.
      const later = await runWords(["four"]);
      expect(later.cells[0].status).toBe("ok");
    });
  });
}

describeUnstorable("PGlite", createPgliteTestDatabase);
describeUnstorable("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
