// One run through the product's public API, as the page makes and follows it: POST /api/v1/runs,
// then its events stream from the cursor POST answered until `run-end`; then the run is read once
// and checked (every cell ok, each with its own row's topic in the answer).

export const benchModels = ["fake-a", "fake-b", "fake-c", "fake-d"];
export const benchPrompt = "Topic: {{topic}}. {{text}}";
/** What the page asks each cell's output cut to (lib/client PREVIEW_CHARS). */
const previewChars = 200;

export interface BenchRow {
  id: string;
  topic: string;
  text: string;
}

/**
 * Deterministic rows; each topic is unique, so an answer carrying another row's topic shows. A
 * salt makes every prompt new (runs with the cache on then store, and never hit, their answers).
 */
export function makeRows(count: number, salt = ""): BenchRow[] {
  return Array.from({ length: count }, (_, i) => ({
    id: String(i + 1),
    topic: `topic-${String(i + 1).padStart(5, "0")}`,
    text: `Say something short about item ${i + 1}, "quoted", with a comma.${salt ? ` (${salt})` : ""}`,
  }));
}

export async function api<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** Points openai-compatible at the fake server and lifts its limits: only the run's cap applies. */
export async function configureProvider(base: string, fakeBaseUrl: string): Promise<void> {
  await api(base, "PUT", "/api/v1/keys/openai-compatible", { baseUrl: fakeBaseUrl });
  await api(base, "PUT", "/api/v1/limits/openai-compatible", { maxConcurrency: null, requestsPerMinute: null, tokensPerMinute: null });
}

export async function createRun(
  base: string,
  rows: BenchRow[],
  concurrency: number,
  cache = false,
): Promise<{ id: string; cursor?: number | null }> {
  const models = benchModels.map((model) => ({ provider: "openai-compatible", model }));
  return api(base, "POST", "/api/v1/runs", { prompt: benchPrompt, rows, models, concurrency, cache, maxAttempts: 4 });
}

/** Reads the run's events stream until run-end (or timeoutMs); returns the count of cell-update events. */
export async function followEvents(
  base: string,
  run: { id: string; cursor?: number | null },
  timeoutMs: number,
  /** Each cell-update as it comes; answering true stops following there (before run-end). */
  onCell?: (cell: { row: number; column: number; status: string }) => boolean | void,
  /** Each run-update as it comes; answering true stops following there. */
  onRun?: (run: { status: string; planning: boolean; counts: Record<string, number> }) => boolean | void,
): Promise<number> {
  const after = run.cursor != null ? `&after=${run.cursor}` : "";
  const response = await fetch(`${base}/api/v1/runs/${run.id}/events?outputChars=${previewChars}${after}`, {
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok || !response.body) throw new Error(`GET /api/v1/runs/${run.id}/events answered ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let updates = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the events stream of run ${run.id} ended without run-end`);
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^event: cell-update$/m.test(event)) {
          updates++;
          if (onCell?.(JSON.parse(/^data: (.*)$/m.exec(event)![1]) as { row: number; column: number; status: string }) === true)
            return updates;
        }
        if (
          onRun &&
          /^event: run-update$/m.test(event) &&
          onRun(JSON.parse(/^data: (.*)$/m.exec(event)![1]) as { status: string; planning: boolean; counts: Record<string, number> }) ===
            true
        )
          return updates;
        if (/^event: run-end$/m.test(event)) return updates;
        if (/^event: error$/m.test(event)) throw new Error(`the events stream of run ${run.id} sent an error: ${event}`);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

interface RunRead {
  status: string;
  cells: { row: number; column: number; status: string; output?: string | null }[];
}

/** Reads the finished run and lists what is wrong with it (empty: every cell answered, its own topic). */
export async function checkRun(base: string, runId: string, rows: BenchRow[]): Promise<string[]> {
  const run = await api<RunRead>(base, "GET", `/api/v1/runs/${runId}?outputChars=200`);
  const problems: string[] = [];
  const expected = rows.length * benchModels.length;
  if (run.status !== "completed") problems.push(`run ${runId} is ${run.status}, not completed`);
  if (run.cells.length !== expected) problems.push(`run ${runId} has ${run.cells.length} cells, not ${expected}`);
  const seen = new Set<string>();
  let notOk = 0;
  let wrongTopic = 0;
  for (const cell of run.cells) {
    const key = `${cell.row}/${cell.column}`;
    if (seen.has(key)) problems.push(`run ${runId}: cell ${key} appears twice`);
    seen.add(key);
    if (cell.status !== "ok" && cell.status !== "warning") notOk++;
    else if (!String(cell.output ?? "").includes(rows[cell.row]?.topic ?? "\u0000")) wrongTopic++;
  }
  if (notOk > 0) problems.push(`run ${runId}: ${notOk} cells did not answer`);
  if (wrongTopic > 0) problems.push(`run ${runId}: ${wrongTopic} answers do not carry their row's topic`);
  return problems;
}
