import { describe, expect, it } from "vitest";
import { imageFileName, receiptFileName, uniqueFileName } from "@/lib/formats/batch/output-file-name";

const at = new Date(Date.UTC(2026, 0, 6, 19, 3, 42, 999));

describe("batch output file names", () => {
  it("follows {provider}-{yyyymmddThhmmssZ}-{job_id}-{index:02}.{ext}, jpeg as .jpg", () => {
    expect(imageFileName({ provider: "openai", at, jobId: "j-000007", index: 0, format: "jpeg" })).toBe(
      "openai-20260106T190342Z-j-000007-00.jpg",
    );
    expect(imageFileName({ provider: "fal", at, jobId: "j-000012", index: 3, format: "PNG" })).toBe("fal-20260106T190342Z-j-000012-03.png");
  });

  it("refuses names that could leave the run folder or break the pattern", () => {
    const ok = { provider: "openai", at, jobId: "j-000001", index: 0, format: "png" };
    expect(() => imageFileName({ ...ok, provider: "../x" })).toThrow(/provider/);
    expect(() => imageFileName({ ...ok, jobId: "x" })).toThrow(/job id/);
    expect(() => imageFileName({ ...ok, index: 100 })).toThrow(/index/);
    expect(() => imageFileName({ ...ok, format: "gif" })).toThrow(/format/);
  });

  it("names the receipt after the image", () => {
    expect(receiptFileName("openai-20260106T190342Z-j-000007-00.jpg")).toBe("receipt-openai-20260106T190342Z-j-000007-00.json");
  });

  it("settles a collision with -2, -3", () => {
    const name = "openai-20260106T190342Z-j-000007-00.jpg";
    expect(uniqueFileName(name, new Set())).toBe(name);
    expect(uniqueFileName(name, new Set([name, "openai-20260106T190342Z-j-000007-00-2.jpg"]))).toBe(
      "openai-20260106T190342Z-j-000007-00-3.jpg",
    );
  });
});
