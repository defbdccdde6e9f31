"use client";

import type { MissingVariables } from "@/lib/client/find-missing-variables";
import { ModalDialog } from "@/components/ui/modal-dialog";

type ValidationDialogProps = {
  problem: MissingVariables | null;
  datasetName: string | null;
  datasetHeaders: string[];
  onClose(): void;
};

/** Why Run did nothing: the prompt's variables that the dataset does not provide. */
export function ValidationDialog({ problem, datasetName, datasetHeaders, onClose }: ValidationDialogProps) {
  return (
    <ModalDialog open={problem !== null} onClose={onClose} title="The run can't start yet">
      {problem && (
        <>
          <p>
            {problem.reason === "no-dataset"
              ? "The prompt uses these variables, but no dataset is loaded:"
              : `These variables are not columns of ${datasetName ?? "the dataset"}:`}
          </p>
          <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Missing variables">
            {problem.names.map((name) => (
              <li
                key={name}
                className="rounded-full border border-red-200 bg-red-50 px-2.5 py-0.5 font-mono text-xs font-medium text-red-800"
              >
                {`{{${name}}}`}
              </li>
            ))}
          </ul>
          <p className="mt-3">
            {problem.reason === "no-dataset"
              ? "Upload a dataset with a column for each, or remove them from the prompt."
              : `Its columns are: ${datasetHeaders.join(", ") || "(none)"}. Rename a column or the variable so they match.`}
          </p>
        </>
      )}
    </ModalDialog>
  );
}
