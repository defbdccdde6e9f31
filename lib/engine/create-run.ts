import type { CreateRunInput } from "@/lib/api/schemas";
import type { RunSummary } from "@/lib/api/types";
import { hashText } from "@/lib/core/cache-key";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { getPromptById, markPromptRun } from "@/lib/db/prompts/prompts";
import { getDatasetItem } from "@/lib/db/datasets/get-dataset-item";
import { insertDataset, listDatasetRows } from "@/lib/db/runs/insert-dataset";
import { insertPromptVersion } from "@/lib/db/runs/insert-prompt-version";
import { insertRun } from "@/lib/db/runs/insert-run";
import { getRunSummary } from "@/lib/db/runs/get-run";
import type { ProviderRegistry } from "@/lib/providers/registry";
import type { TextProvider } from "@/lib/providers/types";
import { NotFoundError, ValidationError } from "./errors";
import { planRun, type RunPlanEstimate } from "./plan-run";

// Thrown to roll a dry run's transaction back, carrying its plan out.
class DryRunDone extends Error {
  constructor(readonly plan: RunPlanEstimate) {
    super("dry run");
  }
}

/**
 * Creates a run for userId from a validated request: snapshots the prompt as an immutable
 * version, stores inline rows as a dataset, and plans every cell, all in one transaction as the
 * user (so RLS checks each id the request names). Workers pick it up when it commits.
 */
export async function createRun(
  deps: { db: Database; providers: ProviderRegistry },
  { userId, input }: { userId: string; input: CreateRunInput },
): Promise<RunSummary & { plan: RunPlanEstimate; cursor: number }> {
  return (await planOrCreateRun(deps, { userId, input, dryRun: false })) as RunSummary & { plan: RunPlanEstimate; cursor: number };
}

/**
 * The plan of a run (cells, estimated tokens and cost per model, what is unpriced) without
 * creating it: the same work as createRun, in a transaction that is rolled back.
 */
export async function estimateRun(deps: { db: Database; providers: ProviderRegistry }, { userId, input }: { userId: string; input: CreateRunInput }): Promise<RunPlanEstimate> {
  try {
    await planOrCreateRun(deps, { userId, input, dryRun: true });
  } catch (error) {
    if (error instanceof DryRunDone) return error.plan;
    throw error;
  }
  throw new Error("A dry run must not create a run");
}

async function planOrCreateRun(
  { db, providers }: { db: Database; providers: ProviderRegistry },
  { userId, input, dryRun }: { userId: string; input: CreateRunInput; dryRun: boolean },
): Promise<RunSummary & { plan: RunPlanEstimate; cursor: number }> {
  input.models.forEach((column, index) => {
    if (!providers.has(column.provider)) {
      throw new ValidationError(`models.${index}.provider`, `Unknown provider "${column.provider}".`);
    }
  });
  // Adapters are had before the transaction opens: having one may read the caller's stored key,
  // and on PGlite (one connection) a query from outside an open transaction waits for it to end,
  // which here would wait for that query: the server's database would hang for good.
  const adapters = new Map<string, TextProvider | null>();
  for (const provider of new Set(input.models.map((column) => column.provider))) {
    // a provider that cannot be had now (no key yet) just falls back to the estimate
    adapters.set(provider, await providers.resolve({ provider, userId }).catch(() => null));
  }
  return asUser(db, userId, async (tx) => {
    let promptId: string | null = null;
    let promptVersionId: string;
    let promptText: string;
    if (input.promptId) {
      const prompt = await getPromptById(tx, { id: input.promptId });
      if (!prompt) throw new NotFoundError(`Prompt ${input.promptId} not found.`);
      const textHash = hashText(prompt.text);
      const version = await markPromptRun(tx, { id: prompt.id, textHash });
      promptId = prompt.id;
      promptVersionId = await insertPromptVersion(tx, { promptId, version, name: prompt.name, type: prompt.type, text: prompt.text, textHash });
      promptText = prompt.text;
    } else {
      const text = input.prompt ?? "";
      promptText = text;
      promptVersionId = await insertPromptVersion(tx, { promptId: null, version: 1, name: "Inline prompt", type: "generator", text, textHash: hashText(text) });
    }

    let graderPromptId: string | null = null;
    let graderVersionId: string | null = null;
    if (input.graderPromptId) {
      const grader = await getPromptById(tx, { id: input.graderPromptId });
      if (!grader) throw new NotFoundError(`Grader prompt ${input.graderPromptId} not found.`);
      const textHash = hashText(grader.text);
      const version = await markPromptRun(tx, { id: grader.id, textHash });
      graderPromptId = grader.id;
      graderVersionId = await insertPromptVersion(tx, { promptId: grader.id, version, name: grader.name, type: "grader", text: grader.text, textHash });
    } else if (input.grader) {
      graderVersionId = await insertPromptVersion(tx, { promptId: null, version: 1, name: "Inline grader", type: "grader", text: input.grader, textHash: hashText(input.grader) });
    }
    if (input.graderModel && !providers.has(input.graderModel.provider)) {
      throw new ValidationError("graderModel.provider", `Unknown provider "${input.graderModel.provider}".`);
    }

    let datasetId: string | null = null;
    let rowCount = 1;
    let planRows: Array<Record<string, string>> = [{}];
    if (input.datasetId) {
      const dataset = await getDatasetItem(tx, { id: input.datasetId });
      if (!dataset) throw new NotFoundError(`Dataset ${input.datasetId} not found.`);
      datasetId = dataset.id;
      rowCount = dataset.rowCount;
      planRows = await listDatasetRows(tx, { datasetId });
    } else if (input.rows) {
      const rows = input.rows.map((row) =>
        Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value == null ? "" : String(value)])),
      );
      const headers = [...new Set(rows.flatMap((row) => Object.keys(row)))];
      datasetId = await insertDataset(tx, { name: input.datasetName ?? "Inline rows", source: "inline", headers, rows });
      rowCount = rows.length;
      planRows = rows;
    }

    const columns = input.models.map((column) => ({ provider: column.provider, model: column.model, params: column.params ?? {} }));
    const trials = input.trials ?? 1;
    const plan = await planRun(tx, {
      prompt: promptText,
      rows: rowCount === 0 ? [] : planRows,
      columns,
      trials,
      tokenizerFor: async ({ provider, model }) => {
        const adapter = adapters.get(provider);
        return adapter?.countTokens ? (text: string) => adapter.countTokens!(model, text) : null;
      },
    });
    if (dryRun) throw new DryRunDone(plan);
    const runId = await insertRun(tx, {
      kind: "workbench",
      promptId,
      promptVersionId,
      graderPromptId,
      graderVersionId,
      graderModel: graderVersionId && input.graderModel ? input.graderModel : null,
      datasetId,
      rowCount,
      trials,
      concurrency: input.concurrency ?? 8,
      providerConcurrency: input.providerConcurrency ?? {},
      maxAttempts: input.maxAttempts ?? 4,
      timeoutMs: Math.round((input.timeoutSeconds ?? 300) * 1000),
      cache: input.cache ?? true,
      budgetUsd: input.budgetUsd ?? null,
      budgetMode: input.budgetUsd == null ? "off" : (input.budgetMode ?? "estimate"),
      columns: columns.map((column, index) => ({ ...column, estimatedCostPerCell: plan.models[index].costPerCellUsd })),
    });
    // Read back before commit: the answer describes the run as created, before any worker has
    // claimed from it.
    const summary = await getRunSummary(tx, { id: runId });
    if (!summary) throw new Error(`Run ${runId} was created but cannot be read back`);
    // Where a live follower starts reading changes: every cell is queued as of here, and replaying
    // 40,000 queued cells before the first answer held a large run's page for seconds.
    const { rows: [{ cursor }] } = await tx.query<{ cursor: string }>(
      "select coalesce(max(seq), 0) as cursor from run_cells where run_id = $1",
      [runId],
    );
    return { ...summary, plan, cursor: Number(cursor) };
  });
}
