import { expect, test } from "@playwright/test";

// The REST API over real HTTP against the production server: shapes, errors that name the field,
// and secrets that never come back.
test.describe("REST API", () => {
  test("bad input answers 400 with a message that names the field", async ({ request }) => {
    const noModels = await request.post("/api/v1/runs", { data: { prompt: "x", models: [] } });
    expect(noModels.status()).toBe(400);
    expect(await noModels.json()).toEqual({
      error: { code: "bad_request", message: "models: at least one model is required", field: "models" },
    });

    const both = await request.post("/api/v1/runs", { data: { models: [{ provider: "mock", model: "echo" }] } });
    expect(both.status()).toBe(400);
    expect((await both.json()).error.field).toBe("prompt");

    const notJson = await request.post("/api/v1/runs", { headers: { "content-type": "application/json" }, data: Buffer.from("{oops") });
    expect(notJson.status()).toBe(400);
    expect((await notJson.json()).error.message).toContain("not valid JSON");

    const unknownProvider = await request.post("/api/v1/runs", { data: { prompt: "x", models: [{ provider: "nope", model: "m" }] } });
    expect(unknownProvider.status()).toBe(400);
    expect((await unknownProvider.json()).error.field).toBe("models.0.provider");

    const missing = await request.get("/api/v1/runs/00000000-0000-4000-8000-000000000999");
    expect(missing.status()).toBe(404);
    const badId = await request.get("/api/v1/runs/not-a-uuid");
    expect(badId.status()).toBe(400);
  });

  test("a dry run answers the plan and creates nothing; a run answers 201 with its plan", async ({ request }) => {
    const body = {
      prompt: "Tell me about {{city}}",
      rows: [{ city: "Paris" }, { city: "Lyon" }],
      models: [
        { provider: "mock", model: "echo", params: { maxTokens: 50 } },
        { provider: "mock", model: "fast" },
      ],
    };
    const dry = await request.post("/api/v1/runs?dryRun=true", { data: body });
    expect(dry.status()).toBe(200);
    const { plan } = await dry.json();
    // both mock models are free: the cost is known even where the output tokens are not
    expect(plan).toMatchObject({ cells: 4, unpriced: [], totalIsLowerBound: false, totalCostUsd: 0 });
    expect(plan.models[0]).toMatchObject({ outputTokens: 100, outputTokensSource: "maxTokens", costUsd: 0 });

    const created = await request.post("/api/v1/runs", { data: { ...body, budgetUsd: 1 } });
    expect(created.status()).toBe(201);
    const run = await created.json();
    expect(run).toMatchObject({ status: "queued", budgetUsd: 1, budgetMode: "estimate", plan: { cells: 4 } });
    await expect.poll(async () => (await (await request.get(`/api/v1/runs/${run.id}`)).json()).status).toBe("completed");
  });

  test("a stored key is never answered, only its last four characters", async ({ request }) => {
    const secret = "sk-e2e-VERYSECRETMATERIAL-9b1c";
    const saved = await request.put("/api/v1/keys/groq", { data: { apiKey: secret } });
    expect(saved.status()).toBe(200);
    expect(await saved.text()).not.toContain("VERYSECRET");
    expect(await saved.json()).toMatchObject({ provider: "groq", last4: "9b1c" });
    const listed = await request.get("/api/v1/keys");
    expect(await listed.text()).not.toContain("VERYSECRET");
    const short = await request.put("/api/v1/keys/groq", { data: { apiKey: "abc" } });
    expect(short.status()).toBe(400);
    expect((await short.json()).error.field).toBe("apiKey");
    expect((await request.delete("/api/v1/keys/groq")).status()).toBe(200);
    expect((await request.delete("/api/v1/keys/groq")).status()).toBe(404);
  });

  test("prices and limits round-trip, and bad values name the field", async ({ request }) => {
    expect(
      (await request.put("/api/v1/prices", { data: { provider: "mock", model: "priced", inputPerMTok: 1, outputPerMTok: 2 } })).status(),
    ).toBe(200);
    const prices = await (await request.get("/api/v1/prices")).json();
    expect(prices.prices).toContainEqual(expect.objectContaining({ provider: "mock", model: "priced", inputPerMTok: 1, outputPerMTok: 2 }));
    expect(prices.reference.checkedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const negative = await request.put("/api/v1/prices", { data: { provider: "mock", model: "x", inputPerMTok: -1, outputPerMTok: 1 } });
    expect((await negative.json()).error.field).toBe("inputPerMTok");
    expect((await request.delete("/api/v1/prices?provider=mock&model=priced")).status()).toBe(200);

    expect(
      (await request.put("/api/v1/limits/mock", { data: { maxConcurrency: 4, requestsPerMinute: null, tokensPerMinute: null } })).status(),
    ).toBe(200);
    const limits = await (await request.get("/api/v1/limits")).json();
    expect(limits.limits).toContainEqual({
      provider: "mock",
      maxConcurrency: 4,
      requestsPerMinute: null,
      tokensPerMinute: null,
      adaptiveLimit: null,
    });
    expect(
      (
        await request.put("/api/v1/limits/mock", { data: { maxConcurrency: null, requestsPerMinute: null, tokensPerMinute: null } })
      ).status(),
    ).toBe(200);
  });

  test("a cell re-run calls the model again; the cache answers repeats until cleared", async ({ request }) => {
    const body = { prompt: `Cache check ${Date.now()} {{n}}`, rows: [{ n: "1" }], models: [{ provider: "mock", model: "fast" }] };
    const first = await (await request.post("/api/v1/runs", { data: body })).json();
    await expect.poll(async () => (await (await request.get(`/api/v1/runs/${first.id}`)).json()).status).toBe("completed");
    const second = await (await request.post("/api/v1/runs", { data: body })).json();
    await expect.poll(async () => (await (await request.get(`/api/v1/runs/${second.id}`)).json()).status).toBe("completed");
    const cell = (await (await request.get(`/api/v1/runs/${second.id}`)).json()).cells[0];
    expect(cell).toMatchObject({ status: "ok", cached: true, costUsd: 0 });

    const rerun = await request.post(`/api/v1/runs/${second.id}/cells/${cell.id}/rerun`);
    expect(rerun.status()).toBe(200);
    await expect
      .poll(async () => (await (await request.get(`/api/v1/runs/${second.id}`)).json()).cells[0].cached, { timeout: 15_000 })
      .toBe(false);

    const cleared = await request.delete("/api/v1/cache");
    expect((await cleared.json()).deleted).toBeGreaterThan(0);
  });

  test("the event stream sends cell updates with ids and ends with run-end", async ({ request }) => {
    const run = await (
      await request.post("/api/v1/runs", {
        data: { prompt: "Stream {{n}}", rows: [{ n: "a" }, { n: "b" }], models: [{ provider: "mock", model: "fast" }], cache: false },
      })
    ).json();
    const events = await request.get(`/api/v1/runs/${run.id}/events`, { timeout: 20_000 });
    expect(events.headers()["content-type"]).toContain("text/event-stream");
    const text = await events.text();
    expect(text).toMatch(/event: cell-update\nid: \d+\ndata: \{/);
    expect(text).toContain("event: run-end");
    // resuming after the last id sends no cell again
    const lastId = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1])).at(-1)!;
    const resumed = await (await request.get(`/api/v1/runs/${run.id}/events`, { headers: { "last-event-id": String(lastId) } })).text();
    expect(resumed).not.toContain("event: cell-update");
    expect(resumed).toContain("event: run-end");
  });
});
