import { Fragment } from "react";
import { placeholderPattern } from "@/lib/core/template";

type DocumentPreviewProps = {
  document: string;
  /** The experiments CSV's variable columns (every column but provider and model); null before a CSV is chosen. */
  variables: string[] | null;
};

/**
 * The text every row sends before its variables are filled, as the experiments spec concatenates
 * it, with each {{variable}} marked: one a CSV column fills, or one no column fills (sent as it
 * is, with a warning on every row).
 */
export function DocumentPreview({ document, variables }: DocumentPreviewProps) {
  const known = new Set(variables ?? []);
  const parts: Array<{ text: string; variable?: string }> = [];
  let last = 0;
  for (const match of document.matchAll(placeholderPattern())) {
    if (match.index > last) parts.push({ text: document.slice(last, match.index) });
    parts.push({ text: match[0], variable: match[1] });
    last = match.index + match[0].length;
  }
  if (last < document.length) parts.push({ text: document.slice(last) });
  const unfilled = [
    ...new Set(parts.filter((part) => part.variable && variables !== null && !known.has(part.variable)).map((part) => part.variable!)),
  ];

  return (
    <section aria-labelledby="document-heading" className="flex min-h-0 flex-col gap-2">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="document-heading" className="text-sm font-semibold text-zinc-900">
          Document sent for each row
        </h2>
        <p className="text-xs text-zinc-600">
          <span className="rounded bg-accent-soft px-1 font-mono text-accent-strong">{"{{column}}"}</span> filled from the CSV
          {" · "}
          <span className="rounded bg-amber-100 px-1 font-mono text-amber-900">{"{{name}}"}</span> no column: sent as is
        </p>
      </div>
      {unfilled.length > 0 && (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          No column fills {unfilled.map((name) => `{{${name}}}`).join(", ")}: every row will keep {unfilled.length === 1 ? "it" : "them"} as
          written and say so in its warning.
        </p>
      )}
      <pre
        tabIndex={0}
        aria-label="Document preview"
        className="max-h-80 min-h-24 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-zinc-200 bg-zinc-50 p-3 font-mono text-[13px] leading-relaxed text-zinc-800"
      >
        {parts.map((part, index) =>
          part.variable ? (
            <mark
              key={index}
              className={`rounded px-0.5 ${variables === null || known.has(part.variable) ? "bg-accent-soft text-accent-strong" : "bg-amber-100 text-amber-900"}`}
            >
              {part.text}
            </mark>
          ) : (
            <Fragment key={index}>{part.text}</Fragment>
          ),
        )}
      </pre>
    </section>
  );
}
