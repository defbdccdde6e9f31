"use client";

import { useDraftStore } from "@/lib/client/draft-store";
import { chooseGraderModel, usePromptStore } from "@/lib/client/prompt-store";
import type { PromptItem } from "@/lib/client/workbench-types";
import { FlaskIcon, SelectChevronIcon } from "@/components/ui/icons";
import { pillClassName } from "./pill-class-name";

type GraderSelectProps = {
  graders: PromptItem[];
  value: string | null;
  disabled?: boolean;
  onChange(id: string | null): void;
};

const modelKey = (model: { provider: string; model: string }) => `${model.provider}/${model.model}`;
const modelLabel = (model: { provider: string; model: string }) => `${model.provider} / ${model.model}`;

/**
 * The grader for the next run, or "No grader" (then cells get thumbs up/down), and with a grader
 * the model that grades every column: the first column's unless another column's model is picked
 * (one judge for all, so grades compare; a model grading its own answers favours itself). Native
 * <select>s dressed as one pill: arrows, Enter, Escape and type-to-find work as in every form.
 */
export function GraderSelect({ graders, value, disabled = false, onChange }: GraderSelectProps) {
  const selected = graders.find((grader) => grader.id === value) ?? null;
  const columns = useDraftStore((state) => state.columns);
  const chosenModel = usePromptStore((state) => state.graderModel);
  const first = columns[0] ?? null;
  // each model once, in column order; the first column's is the default
  const models = columns.filter((column, index) => columns.findIndex((other) => modelKey(other) === modelKey(column)) === index);
  const chosen = chosenModel && models.some((model) => modelKey(model) === modelKey(chosenModel)) ? chosenModel : null;
  const grading = chosen ?? first;
  const showModel = selected !== null && first !== null;

  return (
    <span className="relative inline-flex shrink-0" data-testid="grader-pill">
      <span className="relative inline-flex">
        <select
          data-testid="grader-select"
          aria-label="Grader"
          title={selected ? `Grader: ${selected.name}` : "No grader: grade cells by hand"}
          value={selected?.id ?? ""}
          disabled={disabled}
          onChange={(event) => onChange(event.currentTarget.value === "" ? null : event.currentTarget.value)}
          className={`${pillClassName} appearance-none truncate pr-8 pl-8 [field-sizing:content] ${showModel ? "max-w-[160px] rounded-r-none" : "max-w-[240px]"}`}
        >
          <option value="">No grader</option>
          {graders.map((grader) => (
            <option key={grader.id} value={grader.id}>
              {grader.name}
            </option>
          ))}
        </select>
        {/* Outlined when no grader is chosen, filled when one is. */}
        <FlaskIcon
          filled={selected !== null}
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-accent-strong"
        />
        <SelectChevronIcon
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-3 size-3.5 -translate-y-1/2 text-accent-strong"
        />
      </span>
      {showModel && grading && (
        <span className="relative -ml-px inline-flex">
          <select
            data-testid="grader-model-select"
            aria-label="Grading model"
            title={`Every column is graded by ${modelLabel(grading)}${chosen ? "" : " (the first column's model)"}`}
            value={chosen ? modelKey(chosen) : ""}
            disabled={disabled}
            onChange={(event) => {
              const key = event.currentTarget.value;
              const model = models.find((column) => modelKey(column) === key);
              chooseGraderModel(key === "" || !model ? null : { provider: model.provider, model: model.model });
            }}
            className={`${pillClassName} max-w-[150px] appearance-none truncate rounded-l-none pr-8 pl-3 [field-sizing:content]`}
          >
            <option value="">by {modelLabel(first)} (first column)</option>
            {models.slice(1).map((model) => (
              <option key={modelKey(model)} value={modelKey(model)}>
                by {modelLabel(model)}
              </option>
            ))}
          </select>
          <SelectChevronIcon
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 right-3 size-3.5 -translate-y-1/2 text-accent-strong"
          />
        </span>
      )}
    </span>
  );
}
