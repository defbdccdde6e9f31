import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { uniqueFileName } from "@/lib/formats/batch/output-file-name";

/**
 * Writes bytes to a new file in dir under name, or, when that name exists (two jobs of one
 * provider finishing in the same second with the same index cannot share a job id, but a file
 * left by an earlier attempt can), under the first free name-2.ext, name-3.ext, ... Exclusive
 * create (`wx`) decides, so two writers never share a file whatever their timing. Answers the name used.
 */
export function writeNewFile(dir: string, name: string, bytes: Uint8Array): string {
  const taken = new Set<string>();
  let candidate = name;
  for (;;) {
    let fd: number;
    try {
      fd = openSync(join(dir, candidate), "wx", 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || taken.size > 1000) throw error;
      taken.add(candidate);
      candidate = uniqueFileName(name, taken);
      continue;
    }
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      closeSync(fd);
      rmSync(join(dir, candidate), { force: true });
      throw error;
    }
    closeSync(fd);
    return candidate;
  }
}

/** A job's images found in its folder, each with its receipt, left by an attempt that did not get to record them. */
export interface LeftoverFiles {
  /** One image per index 0..n-1, each with a receipt that vouches for its bytes; null when the set is not whole. */
  complete: { imagePaths: string[]; receiptPaths: string[]; costUsd: number | null; warnings: string[] } | null;
  /** Every file of the job that is not part of `complete` (half-written images, receipts without their image). */
  stray: string[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The files of one job in a run folder: names carry the job id, so no other job's file is
 * matched (`{provider}-{stamp}-{job_id}-{index}[-k].{ext}` and `receipt-` + that + `.json`).
 *
 * How a crashed attempt's files are settled, deterministically: an image counts when its receipt
 * parses, names the same index and count n, and its sha256 is the image's (a receipt is written
 * after its image, so a receipt vouches for a whole image). When every index 0..n-1 has such an
 * image, the first of each index by name is the job's result (the call was made and paid: it is
 * not made again) and every other file of the job is stray; otherwise every file of the job is
 * stray, and the caller deletes them before calling again, so a job never keeps two sets.
 */
export function findLeftoverFiles(dir: string, { provider, jobId, n }: { provider: string; jobId: string; n: number }): LeftoverFiles {
  const imagePattern = new RegExp(`^${escape(provider)}-\\d{8}T\\d{6}Z-${escape(jobId)}-(\\d{2})(?:-\\d+)?\\.(?:jpg|png|webp)$`);
  const receiptPattern = new RegExp(`^receipt-${escape(provider)}-\\d{8}T\\d{6}Z-${escape(jobId)}-\\d{2}(?:-\\d+)?(?:-\\d+)?\\.json$`);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return { complete: null, stray: [] };
  }
  const images = names.filter((name) => imagePattern.test(name));
  const receipts = names.filter((name) => receiptPattern.test(name));
  const chosen = new Map<number, { image: string; receipt: string; costUsd: number | null; warnings: string[] }>();
  for (const image of images) {
    const index = Number(imagePattern.exec(image)![1]);
    if (chosen.has(index)) continue;
    const receipt = `receipt-${image.slice(0, image.lastIndexOf("."))}.json`;
    if (!receipts.includes(receipt)) continue;
    try {
      const parsed = JSON.parse(readFileSync(join(dir, receipt), "utf8")) as {
        cost_usd?: number | null;
        warnings?: string[];
        image?: { index?: number; count?: number; sha256?: string };
      };
      const sha = createHash("sha256")
        .update(readFileSync(join(dir, image)))
        .digest("hex");
      if (parsed.image?.index !== index || parsed.image?.count !== n || parsed.image?.sha256 !== sha) continue;
      chosen.set(index, { image, receipt, costUsd: parsed.cost_usd ?? null, warnings: parsed.warnings ?? [] });
    } catch {
      continue;
    }
  }
  const whole = n > 0 && Array.from({ length: n }, (_, index) => chosen.has(index)).every(Boolean);
  if (!whole) return { complete: null, stray: [...images, ...receipts] };
  const set = Array.from({ length: n }, (_, index) => chosen.get(index)!);
  const kept = new Set(set.flatMap((entry) => [entry.image, entry.receipt]));
  return {
    complete: {
      imagePaths: set.map((entry) => entry.image),
      receiptPaths: set.map((entry) => entry.receipt),
      costUsd: set[0].costUsd,
      warnings: set[0].warnings,
    },
    stray: [...images, ...receipts].filter((name) => !kept.has(name)),
  };
}

/** Deletes files of a run folder by name (names found by findLeftoverFiles, never taken from input). */
export function removeFiles(dir: string, names: readonly string[]): void {
  for (const name of names) rmSync(join(dir, name), { force: true });
}
