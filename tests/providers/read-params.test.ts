import { describe, expect, it } from "vitest";
import { readParams, standardParamNames } from "@/lib/providers/adapters/read-params";
import { createLlamaCppProvider } from "@/lib/providers/llama-cpp-provider";
import { isProviderError, ProviderError } from "@/lib/providers/provider-error";

const everything = { provider: "Vendor", supported: standardParamNames };

function badRequestMessage(params: Record<string, unknown>): string {
  try {
    readParams(params, everything);
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).code).toBe("bad_request");
    return (error as ProviderError).message;
  }
  throw new Error("expected a bad_request");
}

describe("readParams", () => {
  it("passes valid values through under their own names", () => {
    const params = {
      temperature: 0,
      maxTokens: 1,
      topP: 1,
      topK: 3,
      stopSequences: [],
      system: "",
      seed: -5,
      frequencyPenalty: -1.5,
      presencePenalty: 2,
    };
    expect(readParams(params, everything)).toEqual({ values: params, warnings: [] });
  });

  it("treats null and undefined as not set", () => {
    expect(readParams({ temperature: null, maxTokens: undefined }, everything)).toEqual({ values: {}, warnings: [] });
  });

  it("refuses a wrong type with a bad_request that names the parameter and what it got", () => {
    expect(badRequestMessage({ temperature: "0.5" })).toBe('Parameter "temperature" must be a number >= 0; got the string "0.5".');
    expect(badRequestMessage({ temperature: -1 })).toBe('Parameter "temperature" must be a number >= 0; got number -1.');
    expect(badRequestMessage({ maxTokens: 10.5 })).toBe('Parameter "maxTokens" must be a whole number >= 1; got number 10.5.');
    expect(badRequestMessage({ topP: 1.5 })).toContain('"topP" must be a number from 0 to 1');
    expect(badRequestMessage({ stopSequences: ["a", 1] })).toBe('Parameter "stopSequences" must be a list of strings; got a list.');
    expect(badRequestMessage({ system: { text: "x" } })).toBe('Parameter "system" must be a string; got object {"text":"x"}.');
    expect(badRequestMessage({ seed: Number.NaN })).toContain('"seed" must be a whole number');
  });

  it("warns about unknown keys and about known ones the provider cannot honour, and leaves both out", () => {
    const result = readParams({ temperature: 0.5, topK: 5, reasoning: "high" }, { provider: "Vendor", supported: ["temperature"] });
    expect(result.values).toEqual({ temperature: 0.5 });
    expect(result.warnings).toEqual([
      'Vendor does not support the parameter "topK"; it was not sent.',
      'Vendor ignores the unknown parameter "reasoning".',
    ]);
  });

  it("still refuses a wrong type for a parameter the provider would not have sent anyway", () => {
    expect(() => readParams({ topK: "many" }, { provider: "Vendor", supported: [] })).toThrow(ProviderError);
  });

  it("accepts and refuses the same topP values as the llama.cpp provider: one rule, 0 to 1 inclusive", async () => {
    // No model is configured, so a topP the provider accepts gets as far as looking the model up.
    const llama = createLlamaCppProvider({ models: {} });
    try {
      for (const topP of [-0.01, 0, 0.5, 1, 1.01, Number.NaN, Number.POSITIVE_INFINITY, "0.5"]) {
        const params = { temperature: 1, topP };
        const shared = (() => {
          try {
            readParams(params, everything);
            return "accepted";
          } catch (error) {
            return (error as ProviderError).code;
          }
        })();
        const local = await llama
          .generate({ model: "none", prompt: "Once", params, variables: {}, signal: new AbortController().signal })
          .then(
            () => "generated",
            (error: unknown) => (isProviderError(error) ? error.code : String(error)),
          );
        expect(local === "model_not_found" ? "accepted" : local, `topP ${String(topP)}`).toBe(shared);
        expect(shared, `topP ${String(topP)}`).toBe(typeof topP === "number" && topP >= 0 && topP <= 1 ? "accepted" : "bad_request");
      }
    } finally {
      await llama.close();
    }
  });
});
