// The machine and the code a measurement ran on, and how busy the machine and the event loop were.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export function describeMachine() {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    uptimeBefore: readUptime(),
  };
}

/**
 * Which engine was measured: the commit, whether lib/ or the migrations differ from it, and hashes
 * of their current contents (the same hash means the same code was measured).
 */
export function engineFingerprint(): { commit: string; dirty: boolean; sourceHash: string; migrationsHash: string } {
  const git = (...args: string[]) => {
    try {
      return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    } catch {
      return "";
    }
  };
  return {
    commit: git("rev-parse", "--short", "HEAD") || "unknown",
    dirty: git("status", "--porcelain", "--", "lib", "supabase") !== "",
    sourceHash: hashFiles(["lib", path.join("supabase", "migrations")]),
    migrationsHash: hashFiles([path.join("supabase", "migrations")]),
  };
}

export function hashFiles(folders: string[]): string {
  const hash = createHash("sha256");
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|sql)$/.test(entry.name)) hash.update(`${full}\0`).update(readFileSync(full)).update("\0");
    }
  };
  for (const folder of folders) walk(folder);
  return hash.digest("hex").slice(0, 12);
}

export function readUptime(): string {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return `load average: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(", ")}`;
  }
}

/** Busy and total CPU ticks of the whole machine, from /proc/stat (Linux only). */
export function readMachineTicks(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    const idle = fields[3] + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** Measures the longest gap between turns of the event loop, by a 10 ms interval timer. */
export function watchEventLoop(): { stop(): void; longestMs(): number } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      longest = Math.max(longest, performance.now() - last);
    },
    longestMs: () => longest,
  };
}

export function busyShare(before: { busy: number; total: number }, after: { busy: number; total: number }): number | null {
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : null;
}
