"use client";

import { useId, useState } from "react";
import { DatasetParseError, parseDatasetText } from "@/lib/formats/parse-dataset";
import type { LoadedDataset } from "@/lib/client/draft-store";

type DatasetUploadButtonProps = {
  onLoaded(dataset: LoadedDataset): void;
  onError(message: string): void;
};

/**
 * "Upload dataset": a real file input (so it is reachable with Tab and announced as a button),
 * dressed as a pill. The file is parsed here in the browser; nothing is sent until Run.
 */
export function DatasetUploadButton({ onLoaded, onError }: DatasetUploadButtonProps) {
  const inputId = useId();
  const [reading, setReading] = useState(false);

  async function handleFile(file: File) {
    setReading(true);
    try {
      const text = await file.text();
      const { headers, rows } = parseDatasetText(text, file.name);
      onLoaded({ name: file.name, headers, rows });
    } catch (error) {
      if (error instanceof DatasetParseError) onError(error.message);
      else onError(`${file.name}: could not be read (${error instanceof Error ? error.message : String(error)}).`);
    } finally {
      setReading(false);
    }
  }

  return (
    <label
      htmlFor={inputId}
      className="relative inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-full border border-accent-line bg-accent-soft px-3 text-sm font-medium text-accent-strong hover:border-accent hover:bg-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-strong"
    >
      <UploadIcon />
      {reading ? "Reading…" : "Upload dataset"}
      <input
        id={inputId}
        type="file"
        accept=".csv,.json,.tsv,.txt,text/csv,application/json"
        aria-label="Upload dataset"
        className="sr-only"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          // Clear the input so choosing the same file again (after fixing it) fires a change.
          event.currentTarget.value = "";
          if (file) void handleFile(file);
        }}
      />
    </label>
  );
}

function UploadIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.6">
      <path d="M8 10.5V2.5M4.75 5.75 8 2.5l3.25 3.25M2.5 10.5v2a1 1 0 0 0 1 1h9a1 1 0 0 0 1-1v-2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
