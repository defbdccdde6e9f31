"use client";

import { useEffect, useId, useState } from "react";
import { MAX_MATRIX_FILE_CHARS, MAX_MATRIX_INPUTS } from "@/lib/api/matrix";
import { getDataset, listDatasets } from "@/lib/client/datasets-api";
import type { DatasetItem } from "@/lib/client/workbench-types";
import { datasetInputs } from "./dataset-inputs";
import { INPUT_FILE_ACCEPT } from "./file-version";
import { readTextFiles } from "./read-text-files";

/** An input of the matrix: its id, its text and where it came from (a file's name, or a dataset's row). */
export interface InputPick {
  id: string;
  text: string;
  source: string;
}

/**
 * The inputs: upload text or markdown files (the file name without its extension is the id; a
 * file of the same id replaces it), or take a saved dataset's rows, one column as the text and
 * the id from another column or the row's number (made into inputs here in the browser).
 */
export function InputsField({ inputs, onChange }: { inputs: InputPick[]; onChange(inputs: InputPick[]): void }) {
  const inputId = useId();
  const hintId = useId();
  const [problems, setProblems] = useState<string[]>([]);

  const replace = (added: InputPick[], problems: string[]) => {
    const ids = new Set(added.map((input) => input.id));
    const next = [...inputs.filter((input) => !ids.has(input.id)), ...added];
    if (next.length > MAX_MATRIX_INPUTS)
      problems.push(`A matrix takes at most ${MAX_MATRIX_INPUTS.toLocaleString("en-US")} inputs; remove some first.`);
    else onChange(next);
    setProblems(problems);
  };

  const take = async (list: FileList) => {
    const { read, problems } = await readTextFiles([...list]);
    replace(
      read.map((file) => ({ id: file.name, text: file.text, source: file.fileName })),
      problems,
    );
  };

  return (
    <fieldset className="flex min-w-0 flex-col gap-2 rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <legend className="px-1 text-sm font-semibold text-zinc-900">Inputs</legend>
      <label htmlFor={inputId} className="text-sm font-medium text-zinc-800">
        Input files
      </label>
      <p id={hintId} className="-mt-1 text-xs text-zinc-600">
        One text or markdown file per input: tech-talk-01.md is input tech-talk-01. Its first &ldquo;# &rdquo; heading titles it in the
        comparisons.
      </p>
      <input
        id={inputId}
        type="file"
        multiple
        accept={INPUT_FILE_ACCEPT}
        aria-describedby={hintId}
        onChange={(event) => {
          if (event.target.files) void take(event.target.files);
          event.target.value = "";
        }}
        className="text-sm text-zinc-700 file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-zinc-800 hover:file:bg-zinc-50"
      />
      <DatasetRowsPicker onAdd={(added, notes) => replace(added, notes)} />
      {problems.length > 0 && (
        <div role="alert">
          <ul className="flex flex-col gap-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {problems.slice(0, 10).map((problem, index) => (
              <li key={index} className="break-words">
                {problem}
              </li>
            ))}
            {problems.length > 10 && <li>and {problems.length - 10} more.</li>}
          </ul>
        </div>
      )}
      {inputs.length === 0 ? (
        <p className="text-sm text-zinc-600">No inputs yet.</p>
      ) : (
        <>
          <ul
            aria-label="Inputs"
            className="flex max-h-64 flex-col divide-y divide-zinc-100 overflow-y-auto rounded-md border border-zinc-200"
          >
            {inputs.map((input) => (
              <li key={input.id} className="flex items-center gap-2 px-2.5 py-1.5 text-sm">
                <span className="min-w-0 flex-1 truncate font-mono text-[13px] font-medium text-zinc-900">{input.id}</span>
                <span className="shrink-0 text-xs text-zinc-600">
                  {input.source} · {input.text.length.toLocaleString("en-US")} characters
                </span>
                <button
                  type="button"
                  onClick={() => onChange(inputs.filter((other) => other.id !== input.id))}
                  aria-label={`Remove ${input.id}`}
                  className="shrink-0 rounded px-1.5 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
          {inputs.length > 1 && (
            <button
              type="button"
              onClick={() => onChange([])}
              className="self-start text-xs font-medium text-accent-strong hover:underline"
            >
              Remove all {inputs.length.toLocaleString("en-US")} inputs
            </button>
          )}
        </>
      )}
    </fieldset>
  );
}

const ROW_NUMBER = "";

/** A saved dataset's rows as inputs: a column as the text, an id column or the row number. */
function DatasetRowsPicker({ onAdd }: { onAdd(inputs: InputPick[], notes: string[]): void }) {
  const [datasets, setDatasets] = useState<DatasetItem[] | null>(null);
  const [datasetId, setDatasetId] = useState("");
  const [textColumn, setTextColumn] = useState("");
  const [idColumn, setIdColumn] = useState(ROW_NUMBER);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const datasetFieldId = useId();
  const textFieldId = useId();
  const idFieldId = useId();

  useEffect(() => {
    listDatasets().then(setDatasets, (caught: Error) => setProblem(`Could not list the datasets: ${caught.message}`));
  }, []);

  const dataset = datasets?.find((item) => item.id === datasetId) ?? null;

  const choose = (id: string) => {
    setDatasetId(id);
    const chosen = datasets?.find((item) => item.id === id);
    setTextColumn(chosen?.headers[0] ?? "");
    setIdColumn(chosen?.headers.find((header) => /^(id|name|key)$/i.test(header)) ?? ROW_NUMBER);
  };

  const add = async () => {
    if (!dataset || textColumn === "") return;
    setBusy(true);
    setProblem(null);
    try {
      const { rows } = await getDataset(dataset.id, { limit: Math.max(1, Math.min(dataset.rowCount, MAX_MATRIX_INPUTS)) });
      const { inputs, notes } = datasetInputs({ rows, textColumn, idColumn: idColumn === ROW_NUMBER ? null : idColumn });
      const tooLong = inputs.find((input) => input.text.length > MAX_MATRIX_FILE_CHARS);
      if (tooLong) {
        setProblem(`Input ${tooLong.id} holds more than ${MAX_MATRIX_FILE_CHARS.toLocaleString("en-US")} characters.`);
        return;
      }
      onAdd(
        inputs.map((input) => ({ ...input, source: `${dataset.name}, ${textColumn}` })),
        notes,
      );
    } catch (caught) {
      setProblem(`Could not read the dataset: ${(caught as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-1.5 border-t border-zinc-100 pt-2">
      <div className="flex flex-wrap items-end gap-2">
        <label htmlFor={datasetFieldId} className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
          Dataset
          <select
            id={datasetFieldId}
            value={datasetId}
            onChange={(event) => choose(event.target.value)}
            className="w-52 rounded-md border border-zinc-300 bg-white px-2 py-1.5 font-normal"
          >
            <option value="">{datasets === null ? "Loading…" : datasets.length === 0 ? "No datasets yet" : "Choose a dataset"}</option>
            {datasets?.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name} ({item.rowCount.toLocaleString("en-US")} rows)
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={textFieldId} className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
          Input column
          <select
            id={textFieldId}
            value={textColumn}
            disabled={!dataset}
            onChange={(event) => setTextColumn(event.target.value)}
            className="w-36 rounded-md border border-zinc-300 bg-white px-2 py-1.5 font-normal disabled:bg-zinc-100"
          >
            {dataset?.headers.map((header) => (
              <option key={header} value={header}>
                {header}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={idFieldId} className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
          Id from
          <select
            id={idFieldId}
            value={idColumn}
            disabled={!dataset}
            onChange={(event) => setIdColumn(event.target.value)}
            className="w-36 rounded-md border border-zinc-300 bg-white px-2 py-1.5 font-normal disabled:bg-zinc-100"
          >
            <option value={ROW_NUMBER}>Row number</option>
            {dataset?.headers.map((header) => (
              <option key={header} value={header}>
                {header}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={!dataset || textColumn === "" || busy}
          onClick={() => void add()}
          className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50 disabled:cursor-not-allowed disabled:text-zinc-500"
        >
          {busy ? "Reading…" : dataset ? `Add ${Math.min(dataset.rowCount, MAX_MATRIX_INPUTS).toLocaleString("en-US")} rows` : "Add rows"}
        </button>
      </div>
      {dataset && dataset.rowCount > MAX_MATRIX_INPUTS && (
        <p className="text-xs text-zinc-600">
          Its first {MAX_MATRIX_INPUTS.toLocaleString("en-US")} rows become inputs (a matrix takes no more).
        </p>
      )}
      {problem && <p className="text-xs text-red-800">{problem}</p>}
    </div>
  );
}
