import { describe, it, expect } from "vitest";
import { MAX_RETRY_DELAY_MS, parseRetryAfter, retryDelayMs } from "@/lib/core/backoff";

/** mulberry32: a small seeded generator, so the jitter tests are repeatable. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("retryDelayMs", () => {
  it("scales the jitter window by 2^(attempt-1) from a 500 ms base", () => {
    const half = () => 0.5;
    expect(retryDelayMs({ attempt: 1, random: half })).toBe(250);
    expect(retryDelayMs({ attempt: 2, random: half })).toBe(500);
    expect(retryDelayMs({ attempt: 3, random: half })).toBe(1000);
    expect(retryDelayMs({ attempt: 7, random: half })).toBe(16_000);
  });

  it("caps the window at 60 s by default and at capMs when given", () => {
    const almostOne = () => 0.999;
    expect(retryDelayMs({ attempt: 9, random: almostOne })).toBeCloseTo(59_940);
    expect(retryDelayMs({ attempt: 50, random: almostOne })).toBeCloseTo(59_940);
    expect(retryDelayMs({ attempt: 2000, random: almostOne })).toBeCloseTo(59_940);
    expect(retryDelayMs({ attempt: 10, baseMs: 100, capMs: 2_000, random: () => 1 })).toBe(2_000);
  });

  it("uses full jitter: zero is possible", () => {
    expect(retryDelayMs({ attempt: 5, random: () => 0 })).toBe(0);
  });

  it("stays within [0, min(cap, base * 2^(attempt-1))) for a seeded sequence", () => {
    const random = seededRandom(42);
    const seen: number[] = [];
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = Math.min(60_000, 500 * 2 ** (attempt - 1));
      for (let sample = 0; sample < 200; sample++) {
        const delay = retryDelayMs({ attempt, random });
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
        seen.push(delay / ceiling);
      }
    }
    // Jitter actually spreads: samples cover both halves of the window.
    expect(seen.some((fraction) => fraction < 0.25)).toBe(true);
    expect(seen.some((fraction) => fraction > 0.75)).toBe(true);
  });

  it("is repeatable with the same seed", () => {
    const first = seededRandom(7);
    const second = seededRandom(7);
    const run = (random: () => number) => [1, 2, 3, 4].map((attempt) => retryDelayMs({ attempt, random }));
    expect(run(first)).toEqual(run(second));
  });

  it("waits at least the server's Retry-After", () => {
    expect(retryDelayMs({ attempt: 1, retryAfterMs: 5_000, random: () => 0.5 })).toBe(5_000);
    expect(retryDelayMs({ attempt: 1, retryAfterMs: 0, random: () => 0.5 })).toBe(250);
  });

  it("keeps the jittered delay when it is longer than Retry-After", () => {
    expect(retryDelayMs({ attempt: 6, retryAfterMs: 1_000, random: () => 0.5 })).toBe(8_000);
  });

  it("never waits more than 60 s, whatever Retry-After says", () => {
    expect(retryDelayMs({ attempt: 1, retryAfterMs: 3_600_000, random: () => 0.5 })).toBe(MAX_RETRY_DELAY_MS);
    expect(MAX_RETRY_DELAY_MS).toBe(60_000);
  });

  it("ignores a missing or negative Retry-After", () => {
    expect(retryDelayMs({ attempt: 2, retryAfterMs: null, random: () => 0.5 })).toBe(500);
    expect(retryDelayMs({ attempt: 2, retryAfterMs: -1, random: () => 0.5 })).toBe(500);
  });

  it("rejects attempts below 1 or not whole", () => {
    expect(() => retryDelayMs({ attempt: 0 })).toThrow(RangeError);
    expect(() => retryDelayMs({ attempt: 1.5 })).toThrow(RangeError);
  });

  it("uses Math.random by default", () => {
    const delay = retryDelayMs({ attempt: 1 });
    expect(delay).toBeGreaterThanOrEqual(0);
    expect(delay).toBeLessThan(500);
  });
});

describe("parseRetryAfter", () => {
  const now = new Date("2025-06-01T12:00:00.000Z");

  it("reads delay-seconds", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter(" 7 ", now)).toBe(7_000);
  });

  it("reads fractional seconds", () => {
    expect(parseRetryAfter("1.5", now)).toBe(1_500);
  });

  it("turns negative seconds into 0", () => {
    expect(parseRetryAfter("-3", now)).toBe(0);
  });

  it("reads an IMF-fixdate relative to now", () => {
    expect(parseRetryAfter("Sun, 01 Jun 2025 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Mon, 02 Jun 2025 12:00:00 GMT", now)).toBe(86_400_000);
  });

  it("reads the obsolete RFC 850 and asctime date forms", () => {
    expect(parseRetryAfter("Sunday, 01-Jun-25 12:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("Sun Jun  1 12:00:10 2025", now)).toBe(10_000);
  });

  it("returns 0 for a date in the past", () => {
    expect(parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now)).toBe(0);
  });

  it("returns null for absent or unreadable headers", () => {
    for (const header of [
      null,
      undefined,
      "",
      "soon",
      "soon 5",
      "1e3",
      "12abc",
      "Sun, 31 Feb 2025 12:00:00 GMT",
      "Sun, 01 Foo 2025 12:00:00 GMT",
      "2025-06-01T12:00:30Z",
    ]) {
      expect(parseRetryAfter(header, now)).toBeNull();
    }
  });
});
