// Summaries of the measured runs and the tables printed from them.
import type { RunRecord } from "./measure-run";
import { type BackendName, cellCount, cellsPerSecondTarget, shareOfIdealTarget } from "./settings";
import type { StatementTotals } from "./statement-counter";

export interface Summary {
  backend: BackendName;
  latencyMs: number;
  concurrency: number;
  runs: number;
  idealMs: number;
  wallMs: Spread;
  shareOfIdeal: Spread | null;
  cellsPerSecond: Spread;
  firstCallMs: Spread;
  firstResultMs: Spread;
  endLagMs: Spread;
  peakInFlight: Spread;
  cellHoldMs: Spread;
  cellClaimToCallMs: Spread;
  cellCallMs: Spread;
  cellCallToSaveMs: Spread;
  eventLoopStallMs: Spread;
  statementsPerCell: number;
  machineBusy: Spread;
  target: { kind: "shareOfIdeal" | "cellsPerSecond"; value: number; met: boolean } | null;
  problems: number;
}

interface Spread {
  median: number;
  min: number;
  max: number;
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

export function summarize(records: RunRecord[]): Summary[] {
  const groups = new Map<string, RunRecord[]>();
  for (const record of records) {
    const key = `${record.backend}|${record.latencyMs}|${record.concurrency}`;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  return [...groups.values()].map((group) => {
    const { backend, latencyMs, concurrency, idealMs } = group[0];
    const shareOfIdeal = latencyMs > 0 ? spread(group.map((record) => record.shareOfIdeal ?? 0)) : null;
    const cellsPerSecond = spread(group.map((record) => record.cellsPerSecond));
    const shareTarget = shareOfIdealTarget[concurrency];
    const target: Summary["target"] =
      latencyMs > 0
        ? shareTarget === undefined
          ? null
          : { kind: "shareOfIdeal", value: shareTarget, met: shareOfIdeal!.median >= shareTarget }
        : { kind: "cellsPerSecond", value: cellsPerSecondTarget, met: cellsPerSecond.median >= cellsPerSecondTarget };
    return {
      backend,
      latencyMs,
      concurrency,
      runs: group.length,
      idealMs,
      wallMs: spread(group.map((record) => record.wallMs)),
      shareOfIdeal,
      cellsPerSecond,
      firstCallMs: spread(group.map((record) => record.firstCallMs ?? Number.NaN)),
      firstResultMs: spread(group.map((record) => record.firstResultMs ?? Number.NaN)),
      endLagMs: spread(group.map((record) => (record.lastResultMs === null ? Number.NaN : record.wallMs - record.lastResultMs))),
      peakInFlight: spread(group.map((record) => record.peakInFlight)),
      cellHoldMs: spread(group.map((record) => record.cellHoldMs ?? Number.NaN)),
      cellClaimToCallMs: spread(group.map((record) => record.cellClaimToCallMs ?? Number.NaN)),
      cellCallMs: spread(group.map((record) => record.cellCallMs ?? Number.NaN)),
      cellCallToSaveMs: spread(group.map((record) => record.cellCallToSaveMs ?? Number.NaN)),
      eventLoopStallMs: spread(group.map((record) => record.eventLoopStallMs)),
      statementsPerCell: group.reduce((sum, record) => sum + record.statements, 0) / group.length / cellCount,
      machineBusy: spread(group.map((record) => record.machineBusy ?? Number.NaN)),
      target,
      problems: group.reduce((sum, record) => sum + record.problems.length, 0),
    };
  });
}

const ms = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`);
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

export function printProgress(record: RunRecord): void {
  const label = record.warmUp ? "warm-up" : `#${record.repeat}`;
  const share = record.shareOfIdeal === null ? "" : ` ${percent(record.shareOfIdeal)} of ideal`;
  const check = record.problems.length > 0 ? `  PROBLEM: ${record.problems.join("; ")}` : "";
  const notes = record.notes.length > 0 ? `  (${record.notes.join("; ")})` : "";
  console.log(
    `  ${record.latencyMs} ms c=${record.concurrency} ${label}: ${ms(record.wallMs)}${share}, ${Math.round(record.cellsPerSecond)} cells/s, ` +
      `first call ${ms(record.firstCallMs ?? Number.NaN)}, peak ${record.peakInFlight}, held ${record.cellHoldMs?.toFixed(1)} ms/cell ` +
      `(claim->call ${record.cellClaimToCallMs?.toFixed(1)}, call ${record.cellCallMs?.toFixed(1)}, call->save ${record.cellCallToSaveMs?.toFixed(1)}), ` +
      `${record.statements} statements, event loop stalled up to ${Math.round(record.eventLoopStallMs)} ms, ` +
      `load ${record.load1Before.toFixed(2)}, machine ${record.machineBusy === null ? "?" : percent(record.machineBusy)} busy${notes}${check}`,
  );
}

export function printTable(summaries: Summary[]): void {
  const header = [
    "backend",
    "latency",
    "conc",
    "wall median (min-max)",
    "ideal",
    "% of ideal",
    "cells/s median (min-max)",
    "first call",
    "first result",
    "end lag",
    "peak",
    "held/cell = claim>call + call + call>save",
    "loop stall",
    "stmts/cell",
    "target",
  ];
  const lines = summaries.map((summary) => [
    summary.backend,
    `${summary.latencyMs} ms`,
    String(summary.concurrency),
    `${ms(summary.wallMs.median)} (${ms(summary.wallMs.min)}-${ms(summary.wallMs.max)})`,
    summary.idealMs > 0 ? ms(summary.idealMs) : "-",
    summary.shareOfIdeal
      ? `${percent(summary.shareOfIdeal.median)} (${percent(summary.shareOfIdeal.min)}-${percent(summary.shareOfIdeal.max)})`
      : "-",
    `${Math.round(summary.cellsPerSecond.median)} (${Math.round(summary.cellsPerSecond.min)}-${Math.round(summary.cellsPerSecond.max)})`,
    ms(summary.firstCallMs.median),
    ms(summary.firstResultMs.median),
    ms(summary.endLagMs.median),
    summary.peakInFlight.min === summary.peakInFlight.max
      ? String(summary.peakInFlight.max)
      : `${summary.peakInFlight.min}-${summary.peakInFlight.max}`,
    `${summary.cellHoldMs.median.toFixed(1)} = ${summary.cellClaimToCallMs.median.toFixed(1)} + ${summary.cellCallMs.median.toFixed(1)} + ${summary.cellCallToSaveMs.median.toFixed(1)} ms`,
    ms(summary.eventLoopStallMs.median),
    summary.statementsPerCell.toFixed(2),
    summary.target === null
      ? "-"
      : `${summary.target.met ? "met" : "MISSED"} (${summary.target.kind === "shareOfIdeal" ? `>= ${percent(summary.target.value)}` : `>= ${summary.target.value}/s`})` +
        (summary.problems > 0 ? " PROBLEMS" : ""),
  ]);
  const widths = header.map((title, index) => Math.max(title.length, ...lines.map((line) => line[index].length)));
  const format = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index])).join("  ");
  console.log(format(header));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const line of lines) console.log(format(line));
}

/** Statements per run by kind, summed over the runs of each backend and configuration. */
export function printStatements(records: RunRecord[]): void {
  const groups = new Map<string, RunRecord[]>();
  for (const record of records) {
    const key = `${record.backend} ${record.latencyMs} ms c=${record.concurrency}`;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  console.log(
    "\nStatements per run, top 6 by time (mean count, mean total ms, rows per statement; time includes waiting for the connection):",
  );
  for (const [key, group] of groups) {
    const totals = new Map<string, StatementTotals>();
    for (const record of group) {
      for (const [kind, entry] of Object.entries(record.statementsByKind)) {
        const total = totals.get(kind) ?? { count: 0, totalMs: 0, rows: 0 };
        total.count += entry.count;
        total.totalMs += entry.totalMs;
        total.rows += entry.rows;
        totals.set(kind, total);
      }
    }
    const transactions = group.reduce((sum, record) => sum + record.transactions, 0) / group.length;
    const wall = group.reduce((sum, record) => sum + record.wallMs, 0) / group.length;
    const parts = [...totals.entries()]
      .sort((a, b) => b[1].totalMs - a[1].totalMs)
      .slice(0, 6)
      .map(
        ([kind, total]) =>
          `${kind} ${Math.round(total.count / group.length)}x ${Math.round(total.totalMs / group.length)} ms ${(total.rows / total.count).toFixed(1)} rows`,
      );
    console.log(`  ${key} (wall ${ms(wall)}, ${Math.round(transactions)} transactions): ${parts.join(", ")}`);
  }
}
