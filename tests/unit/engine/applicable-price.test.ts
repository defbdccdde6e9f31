import { describe, expect, it } from "vitest";
import { applicablePrice } from "@/lib/engine/applicable-price";

describe("applicablePrice", () => {
  const own = { inputPerMTok: 1, outputPerMTok: 2, perImage: null };
  const listed = { inputPerMTok: 3, outputPerMTok: 4 };

  it("takes the stored price first, then the vendor's listed one, then the shipped reference", () => {
    expect(applicablePrice({ provider: "openai", model: "gpt-4o", stored: own, listed })).toBe(own);
    expect(applicablePrice({ provider: "openai", model: "gpt-4o", stored: null, listed })).toBe(listed);
    expect(applicablePrice({ provider: "openai", model: "gpt-4o", stored: null })).toEqual({
      inputPerMTok: 2.5,
      outputPerMTok: 10,
      perImage: null,
    });
  });

  it("knows no price for a model nobody priced: no cost, never $0", () => {
    expect(applicablePrice({ provider: "openrouter", model: "nobody/priced-this", stored: null })).toBeNull();
  });
});
