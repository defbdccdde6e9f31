// How the history names a run: "summary v6, 20 Nov 09:15 · 26 Nov 14:02 · completed · 24 rows".
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

/** The parts of a run's version label: "summary v1" and the date that version first ran. */
export function versionLabelParts(
  run: Pick<PromptRunHistoryEntry, "version" | "versionName" | "versionSince">,
  options: DateOptions = {},
): { name: string; since: string | null } {
  const version = formatVersion(run.version);
  return {
    name: run.version !== null && run.versionName ? `${run.versionName} ${version}` : version,
    since: run.version !== null && run.versionSince ? formatRunDate(run.versionSince, options) : null,
  };
}

/**
 * "summary v1, 26 Nov 12:20": the version with the prompt's name it ran under and the date it
 * first ran. A rename starts the counter at 1 again, so "v1" alone can name two texts.
 */
export function formatVersionLabel(
  run: Pick<PromptRunHistoryEntry, "version" | "versionName" | "versionSince">,
  options: DateOptions = {},
): string {
  const { name, since } = versionLabelParts(run, options);
  return since ? `${name}, ${since}` : name;
}

/** "1 row", "24 rows". */
export function formatRowCount(count: number): string {
  return `${count} ${count === 1 ? "row" : "rows"}`;
}

/** "summary v6, 20 Nov 09:15 · 26 Nov 14:02 · completed · 24 rows": the run's one-line name in lists and labels. */
export function describeRun(
  run: Pick<PromptRunHistoryEntry, "version" | "versionName" | "versionSince" | "createdAt" | "status" | "rowCount">,
  options: DateOptions = {},
): string {
  return [formatVersionLabel(run, options), formatRunDate(run.createdAt, options), run.status, formatRowCount(run.rowCount)].join(" · ");
}
