"use client";

import { useId } from "react";
import { CheckCircleIcon, ErrorCircleIcon } from "@/components/ui/icons";

/** A prompt file uploaded to the page: its base name and text. */
export interface PromptFile {
  name: string;
  text: string;
}

/**
 * The prompt files a config names: upload several at once (or again, to replace one by name),
 * then each path the config references is listed as found (with the file that fills it) or
 * still missing. A file fills a path with its name or its base name.
 */
export function PromptFilesField({
  files,
  onChange,
  referenced,
}: {
  files: PromptFile[];
  onChange(files: PromptFile[]): void;
  referenced: Array<{ path: string; line: number | null; file: PromptFile | null }>;
}) {
  const inputId = useId();
  const hintId = useId();

  const take = async (list: FileList) => {
    const read = await Promise.all([...list].map(async (file) => ({ name: file.name, text: (await file.text()).replace(/^\uFEFF/, "") })));
    const names = new Set(read.map((file) => file.name));
    onChange([...files.filter((file) => !names.has(file.name)), ...read]);
  };

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={inputId} className="text-sm font-medium text-zinc-800">
        Prompt files
      </label>
      <p id={hintId} className="text-xs text-zinc-600">
        The files the config&apos;s prompts name (name, description, version, system, template). Choose several at once.
      </p>
      <input
        id={inputId}
        type="file"
        multiple
        accept=".yaml,.yml,.json,text/yaml,application/json"
        aria-describedby={hintId}
        onChange={(event) => {
          if (event.target.files) void take(event.target.files);
          event.target.value = "";
        }}
        className="text-sm text-zinc-700 file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-zinc-800 hover:file:bg-zinc-50"
      />
      {referenced.length > 0 && (
        <ul
          aria-label="Prompt files the config names"
          className="flex flex-col gap-1 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-sm"
        >
          {referenced.map((reference) => (
            <li key={reference.path} className="flex items-start gap-2">
              {reference.file ? (
                <CheckCircleIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700" />
              ) : (
                <ErrorCircleIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-700" />
              )}
              <span className="min-w-0 flex-1 break-all font-mono text-[13px] text-zinc-900">{reference.path}</span>
              <span className={`shrink-0 text-xs font-medium ${reference.file ? "text-emerald-800" : "text-red-800"}`}>
                {reference.file ? "Uploaded" : `Missing${reference.line === null ? "" : ` (line ${reference.line})`}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {files.length > 0 && (
        <ul aria-label="Uploaded prompt files" className="flex flex-col gap-1">
          {files.map((file) => (
            <li key={file.name} className="flex items-center gap-2 text-sm">
              <span className="min-w-0 flex-1 truncate font-mono text-[13px] text-zinc-800">{file.name}</span>
              <span className="shrink-0 text-xs text-zinc-600">{file.text.length.toLocaleString("en-US")} characters</span>
              <button
                type="button"
                onClick={() => onChange(files.filter((other) => other.name !== file.name))}
                aria-label={`Remove ${file.name}`}
                className="shrink-0 rounded px-1.5 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
