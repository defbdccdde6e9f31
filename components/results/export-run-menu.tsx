"use client";

import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { pillClassName } from "@/components/toolbar/pill-class-name";

type ExportRunMenuProps = {
  runId: string;
  /** "run of v3, 26 Nov 12:20": names the menu for assistive tech where several are on screen. */
  label?: string;
  /** A toolbar pill, or a small button for a table row. */
  look: "pill" | "row";
};

const FORMATS = [
  { format: "csv", text: "CSV", hint: "for a spreadsheet" },
  { format: "json", text: "JSON", hint: "verbatim, for scripts" },
] as const;

const ROW_BUTTON =
  "inline-flex h-7 items-center rounded-md border border-zinc-300 bg-white px-2.5 text-xs font-medium text-zinc-800 hover:border-accent hover:bg-accent-soft";

/** GET /api/v1/runs/{id}/export: the browser saves the answer (an attachment) as a file. */
export function runExportUrl(runId: string, format: "csv" | "json"): string {
  return `/api/v1/runs/${encodeURIComponent(runId)}/export?format=${format}`;
}

/**
 * Export of a run's cells, with inputs, grades by hand and by the grader, the grader's output and
 * costs: a menu of two downloads, CSV and JSON.
 */
export function ExportRunMenu({ runId, label, look }: ExportRunMenuProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        data-testid="export-run-button"
        aria-label={label ? `Export ${label}` : "Export this run's cells"}
        className={look === "pill" ? pillClassName : ROW_BUTTON}
      >
        Export
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-[200px] rounded-lg border border-zinc-200 bg-white p-1 text-sm shadow-lg"
        >
          {FORMATS.map(({ format, text, hint }) => (
            <DropdownMenu.Item key={format} asChild>
              <a
                href={runExportUrl(runId, format)}
                download
                className="flex cursor-pointer items-baseline justify-between gap-4 rounded-md px-2.5 py-1.5 text-zinc-900 outline-none data-[highlighted]:bg-accent-soft data-[highlighted]:text-accent-strong"
              >
                <span className="font-medium">{text}</span>
                <span className="text-xs text-zinc-600">{hint}</span>
              </a>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
