"use client";

import { useEffect, useId, useState } from "react";
import { MATRIX_NAME_PATTERN, MAX_MATRIX_PROMPTS } from "@/lib/api/matrix";
import { listPrompts } from "@/lib/client/prompts-api";
import type { PromptItem } from "@/lib/client/workbench-types";
import { PROMPT_FILE_ACCEPT } from "./file-version";
import { listPromptRuns } from "./matrix-api";
import { readTextFiles } from "./read-text-files";

/** A prompt version of the matrix: a file's text (v1.txt is v1), or a prompt saved in the app (name@vN). */
export type PromptPick = { kind: "file"; version: string; fileName: string; text: string } | { kind: "saved"; version: string };

/**
 * The prompt versions: upload .txt/.md/.yaml files (the file name without its extension is the
 * version; a file of the same version replaces it), or add a saved prompt's version as name@vN.
 * A saved prompt's versions are the texts its runs used (a prompt never run has its current text
 * as v1), as the server reads name@vN.
 */
export function PromptVersionsField({ picks, onChange }: { picks: PromptPick[]; onChange(picks: PromptPick[]): void }) {
  const inputId = useId();
  const hintId = useId();
  const [problems, setProblems] = useState<string[]>([]);

  const take = async (list: FileList) => {
    const { read, problems } = await readTextFiles([...list]);
    const versions = new Set(read.map((file) => file.name));
    const next: PromptPick[] = [
      ...picks.filter((pick) => !versions.has(pick.version)),
      ...read.map((file) => ({ kind: "file" as const, version: file.name, fileName: file.fileName, text: file.text })),
    ];
    if (next.length > MAX_MATRIX_PROMPTS) problems.push(`A matrix takes at most ${MAX_MATRIX_PROMPTS} prompt versions; remove some first.`);
    else onChange(next);
    setProblems(problems);
  };

  return (
    <fieldset className="flex min-w-0 flex-col gap-2 rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <legend className="px-1 text-sm font-semibold text-zinc-900">Prompt versions</legend>
      <label htmlFor={inputId} className="text-sm font-medium text-zinc-800">
        Prompt files
      </label>
      <p id={hintId} className="-mt-1 text-xs text-zinc-600">
        One file per version: v1.txt is version v1. A .txt or .md file is a template with {"{{input}}"} (also {"{{transcript}}"},{" "}
        {"{{input_id}}"}); a .yaml file a prompt with name, system and template using {"{input}"}.
      </p>
      <input
        id={inputId}
        type="file"
        multiple
        accept={PROMPT_FILE_ACCEPT}
        aria-describedby={hintId}
        onChange={(event) => {
          if (event.target.files) void take(event.target.files);
          event.target.value = "";
        }}
        className="text-sm text-zinc-700 file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-zinc-800 hover:file:bg-zinc-50"
      />
      <SavedPromptPicker
        taken={picks.map((pick) => pick.version)}
        onAdd={(version) => {
          if (picks.length >= MAX_MATRIX_PROMPTS) setProblems([`A matrix takes at most ${MAX_MATRIX_PROMPTS} prompt versions.`]);
          else onChange([...picks, { kind: "saved", version }]);
        }}
      />
      {problems.length > 0 && (
        <div role="alert">
          <ul className="flex flex-col gap-1 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
            {problems.map((problem, index) => (
              <li key={index} className="break-words">
                {problem}
              </li>
            ))}
          </ul>
        </div>
      )}
      {picks.length === 0 ? (
        <p className="text-sm text-zinc-600">No prompt versions yet.</p>
      ) : (
        <ul aria-label="Prompt versions" className="flex flex-col divide-y divide-zinc-100 rounded-md border border-zinc-200">
          {picks.map((pick) => (
            <li key={pick.version} className="flex items-center gap-2 px-2.5 py-1.5 text-sm">
              <span className="min-w-0 flex-1 truncate font-mono text-[13px] font-medium text-zinc-900">{pick.version}</span>
              <span className="shrink-0 text-xs text-zinc-600">
                {pick.kind === "file" ? `${pick.fileName} · ${pick.text.length.toLocaleString("en-US")} characters` : "saved prompt"}
              </span>
              <button
                type="button"
                onClick={() => onChange(picks.filter((other) => other.version !== pick.version))}
                aria-label={`Remove ${pick.version}`}
                className="shrink-0 rounded px-1.5 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

type SavedPrompt = PromptItem & { lastRunTextHash?: string | null };

/** A saved generator prompt and one of its versions, added as name@vN. */
function SavedPromptPicker({ taken, onAdd }: { taken: string[]; onAdd(version: string): void }) {
  const [prompts, setPrompts] = useState<SavedPrompt[] | null>(null);
  const [promptId, setPromptId] = useState("");
  const [versions, setVersions] = useState<number[] | null>(null);
  const [version, setVersion] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const promptFieldId = useId();
  const versionFieldId = useId();

  useEffect(() => {
    listPrompts().then(
      (items) => setPrompts(items.filter((item) => item.type === "generator")),
      (caught: Error) => setProblem(`Could not list the saved prompts: ${caught.message}`),
    );
  }, []);

  const prompt = prompts?.find((item) => item.id === promptId) ?? null;
  const usable = prompt !== null && MATRIX_NAME_PATTERN.test(prompt.name);

  useEffect(() => {
    setVersions(null);
    setVersion("");
    if (!prompt || !MATRIX_NAME_PATTERN.test(prompt.name)) return;
    let stopped = false;
    listPromptRuns(prompt.id).then(
      (runs) => {
        if (stopped) return;
        const found = new Set(
          runs.flatMap((run) =>
            run.version !== null && (run.versionName === null || run.versionName === prompt.name) ? [run.version] : [],
          ),
        );
        if (!prompt.lastRunTextHash) found.add(1);
        const list = [...found].sort((a, b) => b - a);
        setVersions(list);
        setVersion(list.length > 0 ? String(list[0]) : "");
      },
      (caught: Error) => !stopped && setProblem(`Could not read the versions of ${prompt.name}: ${caught.message}`),
    );
    return () => {
      stopped = true;
    };
  }, [prompt]);

  const name = prompt && version ? `${prompt.name}@v${version}` : null;

  return (
    <div className="flex flex-col gap-1.5 border-t border-zinc-100 pt-2">
      <div className="flex flex-wrap items-end gap-2">
        <label htmlFor={promptFieldId} className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
          Saved prompt
          <select
            id={promptFieldId}
            value={promptId}
            onChange={(event) => setPromptId(event.target.value)}
            className="w-52 rounded-md border border-zinc-300 bg-white px-2 py-1.5 font-normal"
          >
            <option value="">{prompts === null ? "Loading…" : prompts.length === 0 ? "No saved prompts" : "Choose a prompt"}</option>
            {prompts?.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={versionFieldId} className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
          Version
          <select
            id={versionFieldId}
            value={version}
            disabled={!versions || versions.length === 0}
            onChange={(event) => setVersion(event.target.value)}
            className="w-24 rounded-md border border-zinc-300 bg-white px-2 py-1.5 font-normal disabled:bg-zinc-100"
          >
            {(versions ?? []).map((item) => (
              <option key={item} value={item}>
                v{item}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={name === null || taken.includes(name)}
          onClick={() => name && onAdd(name)}
          className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50 disabled:cursor-not-allowed disabled:text-zinc-500"
        >
          {name && taken.includes(name) ? "Added" : name ? `Add ${name}` : "Add"}
        </button>
      </div>
      {prompt && !usable && (
        <p className="text-xs text-red-800">
          &ldquo;{prompt.name}&rdquo; cannot name a version (letters, digits, &ldquo;.&rdquo;, &ldquo;_&rdquo;, &ldquo;-&rdquo; only):
          rename it in the workbench to use it here.
        </p>
      )}
      {usable && versions?.length === 0 && <p className="text-xs text-zinc-600">{prompt.name} has no version a run used yet.</p>}
      {problem && <p className="text-xs text-red-800">{problem}</p>}
    </div>
  );
}
