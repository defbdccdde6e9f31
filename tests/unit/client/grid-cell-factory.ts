import type { Cell } from "@/lib/api/types";

/** A finished ok cell with every metric known; override what a test is about. */
export function makeCell(overrides: Partial<Cell> = {}): Cell {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    row: 0,
    column: 0,
    trial: 0,
    status: "ok",
    output: "answer",
    outputParsed: null,
    outputTruncated: false,
    tokensIn: 1000,
    tokensOut: 200,
    tokensEstimated: false,
    latencyMs: 800,
    costUsd: 0.001,
    finishReason: "stop",
    error: null,
    errorCode: null,
    warnings: [],
    attempts: 1,
    cached: false,
    graderStatus: null,
    graderOutput: null,
    graderError: null,
    graderCostUsd: null,
    grade: null,
    manualGrade: null,
    seq: 1,
    updatedAt: "2025-01-01T00:00:00.000Z",
    ...overrides,
  };
}
