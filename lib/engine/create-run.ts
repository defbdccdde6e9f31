import type { CreateRunInput } from "@/lib/api/schemas";
import type { RunSummary } from "@/lib/api/types";
import { hashText } from "@/lib/core/cache-key";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { getPromptById, markPromptRun } from "@/lib/db/prompts/prompts";
import { getDatasetById, insertDataset } from "@/lib/db/runs/insert-dataset";
import { insertPromptVersion } from "@/lib/db/runs/insert-prompt-version";
import { insertRun } from "@/lib/db/runs/insert-run";
import { getRunSummary } from "@/lib/db/runs/get-run";
import type { ProviderRegistry } from "@/lib/providers/registry";
import { NotFoundError, ValidationError } from "./errors";

/**
 * Creates a run for userId from a validated request: snapshots the prompt as an immutable
 * version, stores inline rows as a dataset, and plans every cell, all in one transaction as the
 * user (so RLS checks each id the request names). Workers pick it up when it commits.
 */
export async function createRun(
  { db, providers }: { db: Database; providers: ProviderRegistry },
  { userId, input }: { userId: string; input: CreateRunInput },
): Promise<RunSummary> {
  input.models.forEach((column, index) => {
    if (!providers.has(column.provider)) {
      throw new ValidationError(`models.${index}.provider`, `Unknown provider "${column.provider}".`);
    }
  });
  return asUser(db, userId, async (tx) => {
    let promptId: string | null = null;
    let promptVersionId: string;
    if (input.promptId) {
      const prompt = await getPromptById(tx, { id: input.promptId });
      if (!prompt) throw new NotFoundError(`Prompt ${input.promptId} not found.`);
      const textHash = hashText(prompt.text);
      const version = await markPromptRun(tx, { id: prompt.id, textHash });
      promptId = prompt.id;
      promptVersionId = await insertPromptVersion(tx, { promptId, version, name: prompt.name, type: prompt.type, text: prompt.text, textHash });
    } else {
      const text = input.prompt ?? "";
      promptVersionId = await insertPromptVersion(tx, { promptId: null, version: 1, name: "Inline prompt", type: "generator", text, textHash: hashText(text) });
    }

    let datasetId: string | null = null;
    let rowCount = 1;
    if (input.datasetId) {
      const dataset = await getDatasetById(tx, { id: input.datasetId });
      if (!dataset) throw new NotFoundError(`Dataset ${input.datasetId} not found.`);
      datasetId = dataset.id;
      rowCount = dataset.rowCount;
    } else if (input.rows) {
      const rows = input.rows.map((row) =>
        Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value == null ? "" : String(value)])),
      );
      const headers = [...new Set(rows.flatMap((row) => Object.keys(row)))];
      datasetId = await insertDataset(tx, { name: input.datasetName ?? "Inline rows", source: "inline", headers, rows });
      rowCount = rows.length;
    }

    const runId = await insertRun(tx, {
      kind: "workbench",
      promptId,
      promptVersionId,
      datasetId,
      rowCount,
      trials: input.trials ?? 1,
      concurrency: input.concurrency ?? 8,
      providerConcurrency: input.providerConcurrency ?? {},
      maxAttempts: input.maxAttempts ?? 4,
      timeoutMs: Math.round((input.timeoutSeconds ?? 300) * 1000),
      cache: input.cache ?? true,
      columns: input.models.map((column) => ({ provider: column.provider, model: column.model, params: column.params ?? {} })),
    });
    // Read back before commit: the answer describes the run as created, before any worker has
    // claimed from it.
    const summary = await getRunSummary(tx, { id: runId });
    if (!summary) throw new Error(`Run ${runId} was created but cannot be read back`);
    return summary;
  });
}
