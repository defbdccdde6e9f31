"use client";

import { useEffect, useId, useState } from "react";
import { EVAL_LIMITS } from "@/lib/core/eval/config";
import { getDataset, listDatasets } from "@/lib/client/datasets-api";
import { listPrompts } from "@/lib/client/prompts-api";
import type { DatasetItem, PromptItem } from "@/lib/client/workbench-types";
import { buildEvalConfig } from "./build-config";

/**
 * Writes a config from saved prompts and a dataset into the editor: each chosen prompt (its
 * {{var}} placeholders as the eval's {var}) on one model, a test case per dataset row (at most
 * 10,000), scored by contains. The config is then edited and checked like a pasted one.
 */
export function SavedPromptsBuilder({ onBuild }: { onBuild(yaml: string): void }) {
  const [prompts, setPrompts] = useState<PromptItem[] | null>(null);
  const [datasets, setDatasets] = useState<DatasetItem[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [datasetId, setDatasetId] = useState("");
  const [model, setModel] = useState("mock/echo");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const modelId = useId();
  const datasetFieldId = useId();

  useEffect(() => {
    listPrompts().then(
      (items) => setPrompts(items.filter((item) => item.type === "generator")),
      (caught: Error) => setProblem(`Could not list the saved prompts: ${caught.message}`),
    );
    listDatasets().then(setDatasets, (caught: Error) => setProblem(`Could not list the datasets: ${caught.message}`));
  }, []);

  const dataset = datasets?.find((item) => item.id === datasetId) ?? null;
  const canBuild = chosen.length > 0 && dataset !== null && model.trim() !== "" && !busy;

  const build = async () => {
    if (!canBuild || !prompts || !dataset) return;
    setBusy(true);
    setProblem(null);
    try {
      const { rows } = await getDataset(dataset.id, { limit: Math.max(1, Math.min(dataset.rowCount, EVAL_LIMITS.test_cases)) });
      const built = buildEvalConfig({
        prompts: prompts.filter((prompt) => chosen.includes(prompt.id)),
        rows,
        model: model.trim(),
      });
      if (built.ok) onBuild(built.yaml);
      else setProblem(built.error);
    } catch (caught) {
      setProblem(`Could not read the dataset: ${(caught as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="rounded-lg border border-zinc-200 bg-white px-4 py-2">
      <summary className="cursor-pointer text-sm font-medium text-zinc-800">Build a config from saved prompts and a dataset</summary>
      <div className="mt-3 flex flex-col gap-3 pb-2">
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-sm font-medium text-zinc-800">Prompts</legend>
          {prompts === null ? (
            <p className="text-sm text-zinc-600">Loading…</p>
          ) : prompts.length === 0 ? (
            <p className="text-sm text-zinc-600">No saved prompts yet: save one in the workbench.</p>
          ) : (
            <ul className="flex max-h-40 flex-col gap-1 overflow-y-auto">
              {prompts.map((prompt) => (
                <li key={prompt.id}>
                  <label className="flex items-center gap-2 text-sm text-zinc-800">
                    <input
                      type="checkbox"
                      checked={chosen.includes(prompt.id)}
                      onChange={(event) =>
                        setChosen((current) => (event.target.checked ? [...current, prompt.id] : current.filter((id) => id !== prompt.id)))
                      }
                    />
                    {prompt.name}
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <label htmlFor={datasetFieldId} className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
            Dataset
            <select
              id={datasetFieldId}
              value={datasetId}
              onChange={(event) => setDatasetId(event.target.value)}
              className="w-64 rounded-md border border-zinc-300 bg-white px-2 py-1.5 font-normal"
            >
              <option value="">{datasets === null ? "Loading…" : datasets.length === 0 ? "No datasets yet" : "Choose a dataset"}</option>
              {datasets?.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.name} ({item.rowCount.toLocaleString("en-US")} rows)
                </option>
              ))}
            </select>
          </label>
          <label htmlFor={modelId} className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
            Model
            <input
              id={modelId}
              value={model}
              onChange={(event) => setModel(event.target.value)}
              className="w-64 rounded-md border border-zinc-300 px-2 py-1.5 font-mono text-[13px] font-normal"
            />
          </label>
        </div>
        {dataset && dataset.rowCount > EVAL_LIMITS.test_cases && (
          <p className="text-xs text-zinc-600">Its first {EVAL_LIMITS.test_cases.toLocaleString("en-US")} rows become test cases.</p>
        )}
        {problem && (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
            {problem}
          </p>
        )}
        <button
          type="button"
          disabled={!canBuild}
          onClick={() => void build()}
          className="self-start rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50 disabled:cursor-not-allowed disabled:text-zinc-500"
        >
          {busy ? "Writing…" : "Write the config into the editor"}
        </button>
      </div>
    </details>
  );
}
