import { describe, expect, it } from "vitest";
import { computeCost } from "@/lib/core/cost";
import { referencePrice } from "@/lib/providers/pricing-reference";

describe("computeCost", () => {
  it("is tokens in x input price + tokens out x output price, per million", () => {
    expect(computeCost({ tokensIn: 1_000_000, tokensOut: 500_000, price: { inputPerMTok: 0.15, outputPerMTok: 0.6 } })).toBeCloseTo(
      0.45,
      10,
    );
    expect(computeCost({ tokensIn: 1200, tokensOut: 300, price: { inputPerMTok: 2.5, outputPerMTok: 10 } })).toBeCloseTo(0.006, 10);
  });

  it("is null, never 0, when the price or a count is unknown", () => {
    expect(computeCost({ tokensIn: 10, tokensOut: 10, price: null })).toBeNull();
    expect(computeCost({ tokensIn: 10, tokensOut: 10, price: { inputPerMTok: 1, outputPerMTok: null } })).toBeNull();
    expect(computeCost({ tokensIn: null, tokensOut: 10, price: { inputPerMTok: 1, outputPerMTok: 1 } })).toBeNull();
  });

  it("is 0 for a free model", () => {
    expect(computeCost({ tokensIn: 100, tokensOut: 100, price: referencePrice("mock", "echo") })).toBe(0);
  });
});

describe("referencePrice", () => {
  it("finds exact models, dated ids by their base name, and free local providers", () => {
    expect(referencePrice("openai", "gpt-4o-mini")).toMatchObject({ inputPerMTok: 0.15, outputPerMTok: 0.6 });
    expect(referencePrice("openai", "gpt-4o-2024-08-06")).toMatchObject({ inputPerMTok: 2.5 });
    expect(referencePrice("llama-cpp", "stories260K")).toMatchObject({ inputPerMTok: 0, outputPerMTok: 0 });
  });

  it("knows nothing of a model it does not list", () => {
    expect(referencePrice("openai", "gpt-unknown")).toBeNull();
    expect(referencePrice("openrouter", "anthropic/claude-sonnet-4")).toBeNull();
  });
});
