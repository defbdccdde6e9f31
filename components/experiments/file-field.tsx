"use client";

import { useId, useState } from "react";
import type { ExperimentFile } from "@/lib/core/experiment-document";
import { withoutByteOrderMark } from "@/lib/core/experiment-document";

type FileFieldProps = {
  label: string;
  hint: string;
  /** Whether several files may be chosen (context files). */
  multiple?: boolean;
  accept?: string;
  files: ExperimentFile[];
  onChange(files: ExperimentFile[]): void;
};

/** Reads files as the CLI does: UTF-8 text with a byte order mark removed, named by their base name. */
async function readFiles(list: FileList | File[]): Promise<ExperimentFile[]> {
  return Promise.all([...list].map(async (file) => ({ name: file.name, text: withoutByteOrderMark(await file.text()) })));
}

/**
 * One input file of an experiment: a drop zone that is also a labelled file input (keyboard:
 * Tab to it, Enter or Space opens the picker), showing the chosen files with a way to remove each.
 */
export function FileField({ label, hint, multiple = false, accept, files, onChange }: FileFieldProps) {
  const inputId = useId();
  const hintId = useId();
  const [dragging, setDragging] = useState(false);

  const take = async (list: FileList | File[]) => {
    const read = await readFiles(list);
    if (read.length === 0) return;
    onChange(multiple ? [...files, ...read] : read.slice(0, 1));
  };

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className="text-sm font-medium text-zinc-800">
        {label}
      </label>
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          void take([...event.dataTransfer.files]);
        }}
        className={`relative flex min-h-16 flex-col justify-center rounded-lg border border-dashed px-3 py-2 text-sm transition-colors focus-within:border-accent-strong focus-within:ring-2 focus-within:ring-accent-line ${
          dragging ? "border-accent-strong bg-accent-soft" : "border-zinc-300 bg-white"
        }`}
      >
        {files.length === 0 ? (
          <p id={hintId} className="text-zinc-600">
            Drop a file here or <span className="font-medium text-accent-strong underline underline-offset-2">choose one</span>
            <span className="block text-xs text-zinc-500">{hint}</span>
          </p>
        ) : (
          <ul id={hintId} className="relative z-10 flex flex-col gap-1">
            {files.map((file, index) => (
              <li key={`${file.name}-${index}`} className="flex items-center gap-2">
                <span className="min-w-0 flex-1 truncate font-mono text-[13px] text-zinc-900">{file.name}</span>
                <span className="shrink-0 text-xs text-zinc-500">{file.text.length.toLocaleString("en-US")} characters</span>
                <button
                  type="button"
                  onClick={() => onChange(files.filter((_, other) => other !== index))}
                  aria-label={`Remove ${file.name}`}
                  className="shrink-0 rounded px-1.5 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          id={inputId}
          type="file"
          multiple={multiple}
          accept={accept}
          aria-describedby={hintId}
          onChange={(event) => {
            if (event.target.files) void take(event.target.files);
            event.target.value = "";
          }}
          className={`absolute inset-0 cursor-pointer opacity-0 ${files.length > 0 ? "pointer-events-none" : ""}`}
        />
      </div>
      {files.length > 0 && (
        <button
          type="button"
          onClick={() => document.getElementById(inputId)?.click()}
          className="self-start text-xs font-medium text-accent-strong hover:underline"
        >
          {multiple ? "Add another file" : "Choose another file"}
        </button>
      )}
    </div>
  );
}
