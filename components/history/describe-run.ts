// How the history names a run: "v6 · 26 Nov 14:02 · completed · 24 rows".
import type { PromptRunHistoryEntry } from "@/lib/api/types";

type DateOptions = {
  /** For tests; the browser's own zone otherwise. */
  timeZone?: string;
  /** The year is left out for dates in this moment's year. */
  now?: Date;
};

/** "26 Nov 14:02" in the reader's zone; "26 Nov 2024 14:02" for another year than now's. */
export function formatRunDate(iso: string, { timeZone, now = new Date() }: DateOptions = {}): string {
  const format = new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  });
  const parts = (date: Date) => Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  const date = parts(new Date(iso));
  const year = date.year === parts(now).year ? "" : ` ${date.year}`;
  return `${date.day} ${date.month}${year} ${date.hour}:${date.minute}`;
}

/** "v6", or "no version" for a run that kept no prompt version. */
export function formatVersion(version: number | null): string {
  return version === null ? "no version" : `v${version}`;
}

/** "1 row", "24 rows". */
export function formatRowCount(count: number): string {
  return `${count} ${count === 1 ? "row" : "rows"}`;
}

/** "v6 · 26 Nov 14:02 · completed · 24 rows": the run's one-line name in lists and labels. */
export function describeRun(
  run: Pick<PromptRunHistoryEntry, "version" | "createdAt" | "status" | "rowCount">,
  options: DateOptions = {},
): string {
  return [formatVersion(run.version), formatRunDate(run.createdAt, options), run.status, formatRowCount(run.rowCount)].join(" · ");
}
