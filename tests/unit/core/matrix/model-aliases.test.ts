import { describe, expect, it } from "vitest";
import { GROQ_MODEL_ALIASES, resolveMatrixModel } from "@/lib/core/matrix/model-aliases";

const providers = ["anthropic", "openai", "gemini", "groq", "openrouter", "ollama"];

describe("resolveMatrixModel", () => {
  it("sends the spec's Groq short names to Groq's ids and prints the id", () => {
    expect(resolveMatrixModel("llama-3.3-70b", providers)).toEqual({
      ok: true,
      model: { name: "llama-3.3-70b", provider: "groq", model: "llama-3.3-70b-versatile", label: "llama-3.3-70b-versatile" },
    });
    expect(resolveMatrixModel("mixtral", providers)).toMatchObject({ ok: true, model: { provider: "groq", model: "mixtral-8x7b-32768" } });
    expect(resolveMatrixModel("mixtral-8x7b", providers)).toMatchObject({
      ok: true,
      model: { provider: "groq", model: "mixtral-8x7b-32768" },
    });
  });

  it("lists every model name the spec uses", () => {
    for (const name of ["llama-3.3-70b", "llama-3.3-70b-versatile", "mixtral", "mixtral-8x7b", "mixtral-8x7b-32768"]) {
      expect(GROQ_MODEL_ALIASES[name]).toMatch(/^groq\//);
    }
  });

  it("follows the eval rules for every other name, keeping the name as written", () => {
    expect(resolveMatrixModel("claude-sonnet-4-20250514", providers)).toMatchObject({
      ok: true,
      model: { provider: "anthropic", model: "claude-sonnet-4-20250514", label: "claude-sonnet-4-20250514" },
    });
    expect(resolveMatrixModel("gpt-4o-mini", providers)).toMatchObject({ ok: true, model: { provider: "openai" } });
    expect(resolveMatrixModel("mock/echo", [])).toEqual({
      ok: true,
      model: { name: "mock/echo", provider: "mock", model: "echo", label: "mock/echo" },
    });
    expect(resolveMatrixModel("openrouter/meta-llama/llama-3-8b", providers)).toMatchObject({
      ok: true,
      model: { provider: "openrouter", model: "meta-llama/llama-3-8b" },
    });
  });

  it("explains a name no rule covers, and an alias whose provider is not available", () => {
    const unknown = resolveMatrixModel("llama3", providers);
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error).toContain('Model "llama3" has no provider');
    const noGroq = resolveMatrixModel("mixtral", ["openai"]);
    expect(noGroq.ok).toBe(false);
    if (!noGroq.ok) expect(noGroq.error).toContain('unknown provider "groq"');
  });
});
