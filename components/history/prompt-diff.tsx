"use client";

import { useEffect, useMemo, useState } from "react";
import { diffLines, foldUnchangedLines, type DiffLine } from "@/lib/core/line-diff";
import { getPromptVersion, type PromptVersion } from "@/lib/client/history-api";

type PromptDiffProps = {
  beforeVersionId: string | null;
  afterVersionId: string | null;
  /** "v5", "v6": for the captions. */
  beforeLabel: string;
  afterLabel: string;
  /** "v3": the later run's version, for "Same text (v3)". */
  afterVersion: string;
};

// Versions never change once written, so one fetch per version serves every later comparison.
const versionRequests = new Map<string, Promise<PromptVersion>>();

function loadVersion(id: string): Promise<PromptVersion> {
  let request = versionRequests.get(id);
  if (!request) {
    request = getPromptVersion({ id });
    versionRequests.set(id, request);
    // A failed fetch is not remembered, so opening the comparison again retries it.
    request.catch(() => versionRequests.delete(id));
  }
  return request;
}

type Texts = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; before: string; after: string };

/** The two prompt texts, fetched; "loading" until both are there. */
function usePromptTexts(beforeId: string, afterId: string): Texts {
  const [texts, setTexts] = useState<Texts & { key?: string }>({ status: "loading" });
  const key = `${beforeId}/${afterId}`;
  useEffect(() => {
    let current = true;
    Promise.all([loadVersion(beforeId), loadVersion(afterId)]).then(
      ([before, after]) => current && setTexts({ status: "ready", before: before.text, after: after.text, key }),
      (error: unknown) => current && setTexts({ status: "error", message: error instanceof Error ? error.message : String(error), key }),
    );
    return () => {
      current = false;
    };
  }, [beforeId, afterId, key]);
  // A result for another pair is stale: show "loading" until this pair's arrives.
  return texts.key === key ? texts : { status: "loading" };
}

/** What changed in the prompt text between two runs, line by line. */
export function PromptDiff({ beforeVersionId, afterVersionId, beforeLabel, afterLabel, afterVersion }: PromptDiffProps) {
  if (beforeVersionId === null || afterVersionId === null) {
    return (
      <DiffNote>
        {beforeVersionId === afterVersionId ? "Neither run" : `The ${beforeVersionId === null ? beforeLabel : afterLabel} run`} kept no
        prompt version, so there is no text to compare.
      </DiffNote>
    );
  }
  if (beforeVersionId === afterVersionId) return <DiffNote>Same text ({afterVersion})</DiffNote>;
  return <LoadedDiff beforeVersionId={beforeVersionId} afterVersionId={afterVersionId} beforeLabel={beforeLabel} afterLabel={afterLabel} />;
}

function LoadedDiff({
  beforeVersionId,
  afterVersionId,
  beforeLabel,
  afterLabel,
}: Omit<PromptDiffProps, "afterVersion"> & { beforeVersionId: string; afterVersionId: string }) {
  const texts = usePromptTexts(beforeVersionId, afterVersionId);
  if (texts.status === "loading") return <DiffNote>Loading the prompt texts…</DiffNote>;
  if (texts.status === "error")
    return (
      <DiffNote role="alert" tone="error">
        Could not load the prompt texts: {texts.message}
      </DiffNote>
    );
  if (texts.before === texts.after)
    return (
      <DiffNote>
        Same text ({beforeLabel} and {afterLabel} read the same)
      </DiffNote>
    );
  return (
    <DiffTable
      key={`${beforeVersionId}/${afterVersionId}`}
      before={texts.before}
      after={texts.after}
      beforeLabel={beforeLabel}
      afterLabel={afterLabel}
    />
  );
}

const ROW_TONES: Record<DiffLine["kind"], { row: string; number: string; sign: string; spoken: string }> = {
  added: { row: "bg-green-50 text-green-800", number: "text-green-700", sign: "+", spoken: "added" },
  removed: { row: "bg-red-50 text-red-800", number: "text-red-700", sign: "-", spoken: "removed" },
  same: { row: "text-zinc-600", number: "text-zinc-500", sign: " ", spoken: "unchanged" },
};

function DiffTable({ before, after, beforeLabel, afterLabel }: { before: string; after: string; beforeLabel: string; afterLabel: string }) {
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const items = useMemo(() => foldUnchangedLines(lines), [lines]);
  // Folds the person opened, by their position in `items` (the table is remounted per pair).
  const [unfolded, setUnfolded] = useState<ReadonlySet<number>>(new Set());
  const added = lines.filter((line) => line.kind === "added").length;
  const removed = lines.filter((line) => line.kind === "removed").length;

  return (
    <div data-testid="history-diff" className="flex min-h-0 flex-col gap-1.5">
      <p className="text-xs text-zinc-600">
        <span className="font-medium text-green-700">+{added}</span> <span className="font-medium text-red-700">−{removed}</span>{" "}
        {added + removed === 1 ? "line" : "lines"} changed
        {added + removed === 0 && " (only the line endings differ)"}
      </p>
      <div className="max-h-[min(420px,45vh)] overflow-auto rounded-lg border border-zinc-200 bg-white">
        <table className="w-full table-fixed border-collapse font-mono text-[12.5px] leading-5">
          <caption className="sr-only">
            Prompt lines from {beforeLabel} to {afterLabel}
          </caption>
          <colgroup>
            <col className="w-11" />
            <col className="w-11" />
            <col className="w-5" />
            <col />
          </colgroup>
          <thead className="sr-only">
            <tr>
              <th scope="col">{beforeLabel} line</th>
              <th scope="col">{afterLabel} line</th>
              <th scope="col">Change</th>
              <th scope="col">Text</th>
            </tr>
          </thead>
          <tbody>
            {items.flatMap((item, index) => {
              if (item.kind !== "fold") return [<DiffRow key={index} line={item} />];
              if (unfolded.has(index)) return item.lines.map((line, lineIndex) => <DiffRow key={`${index}-${lineIndex}`} line={line} />);
              return [
                <tr key={index} className="bg-zinc-50">
                  <td colSpan={4} className="px-2 py-0.5">
                    <button
                      type="button"
                      onClick={() => setUnfolded((current) => new Set(current).add(index))}
                      className="rounded px-1 font-sans text-xs text-accent-strong hover:underline"
                    >
                      Show {item.lines.length} unchanged lines
                    </button>
                  </td>
                </tr>,
              ];
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function DiffRow({ line }: { line: DiffLine }) {
  const tone = ROW_TONES[line.kind];
  return (
    <tr className={tone.row}>
      <td className={`px-2 text-right align-top tabular-nums select-none ${tone.number}`}>{line.beforeLine ?? ""}</td>
      <td className={`px-2 text-right align-top tabular-nums select-none ${tone.number}`}>{line.afterLine ?? ""}</td>
      <td className="text-center align-top font-semibold select-none">
        <span aria-hidden="true">{tone.sign}</span>
        <span className="sr-only">{tone.spoken}</span>
      </td>
      <td className="pr-3 align-top whitespace-pre-wrap [overflow-wrap:anywhere]">{line.text}</td>
    </tr>
  );
}

function DiffNote({ children, role, tone = "plain" }: { children: React.ReactNode; role?: "alert"; tone?: "plain" | "error" }) {
  return (
    <div
      data-testid="history-diff"
      role={role}
      className={`rounded-lg border px-3 py-2.5 text-sm ${tone === "error" ? "border-red-300 bg-red-50 text-red-800" : "border-zinc-200 bg-zinc-50 text-zinc-700"}`}
    >
      {children}
    </div>
  );
}
