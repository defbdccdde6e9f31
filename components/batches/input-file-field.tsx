"use client";

import { useId, useState } from "react";
import { ConfigEditor, type EditorProblem } from "@/components/evals/config-editor";
import { UploadIcon } from "@/components/ui/icons";
import type { BatchInputFile } from "./build-plan";

/** Reads a dropped or chosen file as text, without a byte-order mark. */
export async function readInputFile(file: File): Promise<BatchInputFile> {
  return { name: file.name, text: (await file.text()).replace(/^\uFEFF/, "") };
}

/**
 * One of the builder's two inputs: choose a file, drop one on the box, or edit the text in place
 * (the same CodeMirror editor the /evals page uses, with each problem marked at its line). The
 * name decides how the text is read (.csv or .txt; .json or .yaml), so it can be changed too.
 */
export function InputFileField({
  title,
  step,
  hint,
  accept,
  file,
  onChange,
  onDropFiles,
  problems,
  placeholder,
  plainText,
  describedBy,
  children,
}: {
  title: string;
  step: number;
  hint: string;
  accept: string;
  file: BatchInputFile;
  onChange(file: BatchInputFile): void;
  /** Files dropped here: the page sends each to the input its extension names. */
  onDropFiles(files: File[]): void;
  problems: EditorProblem[];
  placeholder: string;
  plainText: boolean;
  describedBy: string;
  children?: React.ReactNode;
}) {
  const chooseId = useId();
  const nameId = useId();
  const headingId = useId();
  const [dragging, setDragging] = useState(false);
  return (
    <section
      aria-labelledby={headingId}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes("Files")) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        onDropFiles([...event.dataTransfer.files]);
      }}
      className={`flex min-w-0 flex-col gap-3 rounded-lg border bg-white p-4 ${
        dragging ? "border-accent-strong ring-2 ring-accent-line" : "border-zinc-200"
      }`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-sm font-semibold text-zinc-900">
            <span className="text-zinc-500">{step}.</span> {title}
          </h2>
          <p className="text-xs text-zinc-600">{hint}</p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <label htmlFor={nameId} className="flex flex-col gap-0.5 text-xs font-medium text-zinc-700">
            {title} file name
            <input
              id={nameId}
              value={file.name}
              onChange={(event) => onChange({ ...file, name: event.target.value })}
              spellCheck={false}
              className="w-44 rounded-md border border-zinc-300 px-2 py-1 font-mono text-[13px] font-normal text-zinc-900"
            />
          </label>
          <label
            htmlFor={chooseId}
            className="flex cursor-pointer items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 focus-within:ring-2 focus-within:ring-accent-line hover:bg-zinc-50"
          >
            <UploadIcon aria-hidden="true" className="size-4" />
            Choose {title.toLowerCase()}
            <input
              id={chooseId}
              type="file"
              accept={accept}
              className="sr-only"
              onChange={(event) => {
                const chosen = event.target.files?.[0];
                event.target.value = "";
                if (chosen) void readInputFile(chosen).then(onChange);
              }}
            />
          </label>
        </div>
      </div>
      <ConfigEditor
        value={file.text}
        onChange={(text) => onChange({ ...file, text })}
        problems={problems}
        label={title}
        describedBy={describedBy}
        placeholderText={placeholder}
        plainText={plainText}
      />
      <p className="text-xs text-zinc-600">Or drop a file on this box.</p>
      {children}
    </section>
  );
}
