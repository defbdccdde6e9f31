import { readFileSync } from "node:fs";

/**
 * Whether an image's receipt is on disk whole: it parses, as resuming a run requires
 * (lib/engine/batch-files.ts). A receipt exists from its open on, so a kill can leave one cut off;
 * its image is then not vouched for, and its job may be called again.
 */
export function receiptIsWhole(file: string): boolean {
  try {
    JSON.parse(readFileSync(file, "utf8"));
    return true;
  } catch {
    return false;
  }
}
