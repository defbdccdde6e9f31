import { describe, expect, it } from "vitest";
import { MODEL_NAME_RULE, routeModel } from "@/lib/core/eval/model-route";
import { providerFactories } from "@/lib/providers/provider-factories";

// The ids the eval planner passes: every vendor adapter's.
const providerIds = Object.keys(providerFactories);

describe("routeModel", () => {
  it.each([
    // The spec's own model names.
    ["claude-sonnet-4-20250514", "anthropic", "claude-sonnet-4-20250514"],
    ["claude-opus-4-5-20251101", "anthropic", "claude-opus-4-5-20251101"],
    ["gpt-4o-mini", "openai", "gpt-4o-mini"],
    ["o1", "openai", "o1"],
    ["o3-mini", "openai", "o3-mini"],
    ["o4-mini-2025-04-16", "openai", "o4-mini-2025-04-16"],
    ["gemini-2.5-flash", "gemini", "gemini-2.5-flash"],
    ["mock/echo", "mock", "echo"],
    ["ollama/llama3", "ollama", "llama3"],
    ["anthropic/claude-sonnet-4-20250514", "anthropic", "claude-sonnet-4-20250514"],
    // Only the first segment is the provider; OpenRouter's ids have a slash of their own.
    ["openrouter/meta-llama/llama-3-8b-instruct", "openrouter", "meta-llama/llama-3-8b-instruct"],
    ["openai-compatible/qwen2.5-7b", "openai-compatible", "qwen2.5-7b"],
  ])("routes %s to %s", (name, provider, model) => {
    expect(routeModel(name, providerIds)).toEqual({ ok: true, route: { provider, model } });
  });

  it("quotes the rule for a bare name that matches none of it", () => {
    expect(routeModel("llama3", providerIds)).toEqual({ ok: false, error: `Model "llama3" has no provider: ${MODEL_NAME_RULE}` });
    // Prefixes are whole: "o" must be followed by a digit, "gpt" by a hyphen; case matters as in the vendors' ids.
    for (const name of ["omni", "gpt4", "Claude-3-opus", "chatgpt-4o-latest"]) {
      expect(routeModel(name, providerIds)).toEqual({ ok: false, error: `Model "${name}" has no provider: ${MODEL_NAME_RULE}` });
    }
  });

  it("names an unknown provider and lists the known ones", () => {
    expect(routeModel("acme/model-1", ["openai", "anthropic"])).toEqual({
      ok: false,
      error: 'Model "acme/model-1" names an unknown provider "acme"; known providers: mock, openai, anthropic',
    });
  });

  it("refuses an empty model, an empty provider and white space", () => {
    expect(routeModel("", providerIds)).toEqual({ ok: false, error: "The model name is empty" });
    expect(routeModel("openai/", providerIds)).toEqual({ ok: false, error: 'Model "openai/" names no model after "openai/"' });
    expect(routeModel("/gpt-4o", providerIds).ok).toBe(false);
    expect(routeModel("gpt-4o ", providerIds)).toEqual({ ok: false, error: 'Model "gpt-4o " has white space in its name' });
  });

  it("says so when the provider a prefix names is not available", () => {
    expect(routeModel("gemini-2.5-flash", ["openai"])).toEqual({
      ok: false,
      error: 'Model "gemini-2.5-flash" is served by gemini, which is not available here',
    });
    // The mock needs no factory.
    expect(routeModel("mock/echo", [])).toEqual({ ok: true, route: { provider: "mock", model: "echo" } });
  });
});
