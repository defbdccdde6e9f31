"use client";

import type { RunValidationProblem } from "@/lib/client/find-run-problem";
import { ModalDialog } from "@/components/ui/modal-dialog";

type ValidationDialogProps = {
  problem: RunValidationProblem | null;
  datasetName: string | null;
  datasetHeaders: string[];
  onClose(): void;
};

/** Why Run did nothing: each variable of the prompt or grader that nothing provides. */
export function ValidationDialog({ problem, datasetName, datasetHeaders, onClose }: ValidationDialogProps) {
  const dataset = datasetName ?? "the dataset";
  return (
    <ModalDialog open={problem !== null} onClose={onClose} title="The run can't start yet" testId="validation-dialog">
      {problem && (
        <>
          {problem.generator.length > 0 && (
            <>
              <p>
                {problem.noDataset
                  ? "The prompt uses these variables, but no dataset is loaded:"
                  : `The prompt uses these variables, which are not columns of ${dataset}:`}
              </p>
              <MissingList label="Missing variables of the prompt" names={problem.generator} />
            </>
          )}
          {problem.grader && (
            <>
              <p className={problem.generator.length > 0 ? "mt-4" : undefined}>
                The grader “{problem.grader.name}” uses these variables, which are neither columns of {dataset} nor{" "}
                <code className="font-mono text-xs">{"{{output}}"}</code>:
              </p>
              <MissingList label="Missing variables of the grader" names={problem.grader.names} />
            </>
          )}
          <p className="mt-3">
            {problem.noDataset
              ? "Upload a dataset with a column for each, or remove them from the prompt."
              : `Its columns are: ${datasetHeaders.join(", ") || "(none)"}. Rename a column or the variable so they match.`}
          </p>
        </>
      )}
    </ModalDialog>
  );
}

function MissingList({ label, names }: { label: string; names: string[] }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-1.5" aria-label={label}>
      {names.map((name) => (
        <li key={name} className="rounded-full border border-red-200 bg-red-50 px-2.5 py-0.5 font-mono text-xs font-medium text-red-800">
          {`{{${name}}}`}
        </li>
      ))}
    </ul>
  );
}
