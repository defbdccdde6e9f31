import { describe, expect, it } from "vitest";
import table from "@/lib/providers/context-windows.json";
import { contextWindowsChecked, lookupContextWindow, tableModels } from "@/lib/providers/context-windows";
import { providerFactories } from "@/lib/providers/provider-factories";

describe("providerFactories", () => {
  it("offers the seven vendors with their defaults and environment variables", () => {
    expect(Object.keys(providerFactories).sort()).toEqual([
      "anthropic",
      "gemini",
      "groq",
      "ollama",
      "openai",
      "openai-compatible",
      "openrouter",
    ]);
    expect(
      Object.values(providerFactories).map(({ id, needsKey, defaultBaseURL, envKey, envKeyAliases }) => ({
        id,
        needsKey,
        defaultBaseURL,
        envKey,
        envKeyAliases,
      })),
    ).toEqual([
      { id: "openai", needsKey: true, defaultBaseURL: "https://api.openai.com/v1", envKey: "OPENAI_API_KEY", envKeyAliases: undefined },
      {
        id: "anthropic",
        needsKey: true,
        defaultBaseURL: "https://api.anthropic.com/v1",
        envKey: "ANTHROPIC_API_KEY",
        envKeyAliases: undefined,
      },
      {
        id: "openrouter",
        needsKey: true,
        defaultBaseURL: "https://openrouter.ai/api/v1",
        envKey: "OPENROUTER_API_KEY",
        envKeyAliases: undefined,
      },
      { id: "groq", needsKey: true, defaultBaseURL: "https://api.groq.com/openai/v1", envKey: "GROQ_API_KEY", envKeyAliases: undefined },
      {
        id: "gemini",
        needsKey: true,
        defaultBaseURL: "https://generativelanguage.googleapis.com/v1beta",
        envKey: "GOOGLE_GENERATIVE_AI_API_KEY",
        envKeyAliases: ["GEMINI_API_KEY"],
      },
      { id: "ollama", needsKey: false, defaultBaseURL: "http://localhost:11434", envKey: null, envKeyAliases: undefined },
      { id: "openai-compatible", needsKey: false, defaultBaseURL: null, envKey: null, envKeyAliases: undefined },
    ]);
  });

  it("builds text adapters with the factory's id, using the default base URL when none is given", () => {
    for (const factory of Object.values(providerFactories)) {
      const baseURL = factory.defaultBaseURL ?? "http://127.0.0.1:1234/v1";
      const adapter = factory.create({ apiKey: "sk-any-key-0000", baseURL: factory.defaultBaseURL ? null : baseURL });
      expect(adapter).toMatchObject({ id: factory.id, kind: "text" });
      expect(typeof adapter.contextWindow).toBe("function");
    }
  });
});

describe("the shipped context-window table", () => {
  it("records the date it was checked and a source per vendor", () => {
    expect(contextWindowsChecked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(table.sources).sort()).toEqual(Object.keys(table.providers).sort());
  });

  it("holds positive whole numbers only", () => {
    for (const provider of Object.keys(table.providers)) {
      for (const { contextWindow } of tableModels(provider)) expect(Number.isInteger(contextWindow) && contextWindow > 0).toBe(true);
    }
  });

  it("reads dated snapshots as their base model and guesses nothing else", () => {
    expect(lookupContextWindow("openai", "gpt-4o-mini-2024-07-18")).toBe(128_000);
    expect(lookupContextWindow("anthropic", "claude-opus-4-1-20250805")).toBe(200_000);
    // A variant is not its family: gpt-4o-audio-preview is not in the table, so it is unknown.
    expect(lookupContextWindow("openai", "gpt-4o-audio-preview")).toBeNull();
    expect(lookupContextWindow("nobody", "gpt-4o")).toBeNull();
    expect(lookupContextWindow("openai", "constructor")).toBeNull();
  });
});
