"use client";

import { useId, useState } from "react";
import { MAX_MATRIX_MODELS } from "@/lib/api/matrix";
import { GROQ_MODEL_ALIASES } from "@/lib/core/matrix/model-aliases";
import { CloseIcon } from "@/components/ui/icons";

// Names offered as you type: the keyless mock models and the spec's Groq short names.
const SUGGESTIONS = ["mock/echo", "mock/fast", "mock/slow", ...Object.keys(GROQ_MODEL_ALIASES)];
// The short names alone (not Groq's own ids, which the table also takes).
const SHORT_NAMES = Object.entries(GROQ_MODEL_ALIASES).filter(([name, target]) => !target.endsWith(`/${name}`));

/**
 * The models, named as eval configs name them (claude-*, gpt-*, provider/model, mock/... with no
 * key) or by the spec's Groq short names; typed one at a time (Enter or a comma adds it) and
 * shown as chips, each removable.
 */
export function ModelsField({ models, onChange }: { models: string[]; onChange(models: string[]): void }) {
  const [draft, setDraft] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const fieldId = useId();
  const hintId = useId();
  const listId = useId();

  const add = (text: string) => {
    const names = text
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "");
    const next = [...models];
    for (const name of names) if (!next.includes(name)) next.push(name);
    if (next.length > MAX_MATRIX_MODELS) {
      setProblem(`A matrix takes at most ${MAX_MATRIX_MODELS} models.`);
      return;
    }
    const tooLong = names.find((name) => name.length > 200);
    if (tooLong) {
      setProblem(`A model name has at most 200 characters.`);
      return;
    }
    setProblem(null);
    onChange(next);
    setDraft("");
  };

  return (
    <fieldset className="flex min-w-0 flex-col gap-2 rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <legend className="px-1 text-sm font-semibold text-zinc-900">Models</legend>
      <div className="flex items-end gap-2">
        <label htmlFor={fieldId} className="flex min-w-0 flex-1 flex-col gap-1 text-sm font-medium text-zinc-800">
          Model
          <input
            id={fieldId}
            value={draft}
            list={listId}
            aria-describedby={hintId}
            placeholder="mock/echo"
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" || event.key === ",") {
                event.preventDefault();
                add(draft);
              }
            }}
            className="w-full rounded-md border border-zinc-300 px-2 py-1.5 font-mono text-[13px] font-normal placeholder:text-zinc-500"
          />
        </label>
        <datalist id={listId}>
          {SUGGESTIONS.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <button
          type="button"
          onClick={() => add(draft)}
          disabled={draft.trim() === ""}
          className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50 disabled:cursor-not-allowed disabled:text-zinc-500"
        >
          Add model
        </button>
      </div>
      <p id={hintId} className="text-xs text-zinc-600">
        As eval configs name them: claude-*, gpt-*, provider/model, or mock/echo, mock/fast, mock/slow (no key needed). Groq short names:{" "}
        {SHORT_NAMES.map(([name, target], index) => (
          <span key={name}>
            {index > 0 && ", "}
            <span className="font-mono">{name}</span> → <span className="font-mono">{target}</span>
          </span>
        ))}
        .
      </p>
      {problem && (
        <p role="alert" className="text-sm text-red-800">
          {problem}
        </p>
      )}
      {models.length === 0 ? (
        <p className="text-sm text-zinc-600">No models yet.</p>
      ) : (
        <ul aria-label="Models" className="flex flex-wrap gap-1.5">
          {models.map((model) => (
            <li
              key={model}
              className="inline-flex items-center gap-1 rounded-full border border-accent-line bg-accent-soft py-0.5 pl-2.5 pr-1 text-sm"
            >
              <span className="font-mono text-[13px] text-zinc-900">{model}</span>
              <button
                type="button"
                onClick={() => onChange(models.filter((other) => other !== model))}
                aria-label={`Remove ${model}`}
                className="grid size-5 place-items-center rounded-full text-zinc-600 hover:bg-white hover:text-zinc-900"
              >
                <CloseIcon aria-hidden="true" className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
