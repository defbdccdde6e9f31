import { describe, expect, it } from "vitest";
import { parseGrade } from "@/lib/core/parse-grade";

describe("parseGrade", () => {
  it("reads numbers, percentages and fractions from 0 to 1", () => {
    expect(parseGrade("0.75")).toBe(0.75);
    expect(parseGrade(" 1 ")).toBe(1);
    expect(parseGrade("70%")).toBeCloseTo(0.7);
    expect(parseGrade("7/10")).toBeCloseTo(0.7);
    expect(parseGrade("4 out of 5")).toBeCloseTo(0.8);
  });

  it("reads pass and fail words", () => {
    expect(parseGrade("PASS")).toBe(1);
    expect(parseGrade("fail.")).toBe(0);
    expect(parseGrade("yes")).toBe(1);
    expect(parseGrade("no")).toBe(0);
  });

  it("reads a grade or score from a JSON object", () => {
    expect(parseGrade('{"grade": 0.4, "reason": "partly"}')).toBe(0.4);
    expect(parseGrade('{"score": "pass"}')).toBe(1);
    expect(parseGrade('{"grade": true}')).toBe(1);
  });

  it("does not guess: out-of-range numbers, prose and empty answers are null", () => {
    expect(parseGrade("7")).toBeNull();
    expect(parseGrade("-0.2")).toBeNull();
    expect(parseGrade("The answer is good")).toBeNull();
    expect(parseGrade("")).toBeNull();
    expect(parseGrade('{"reason": "no grade"}')).toBeNull();
  });
});
