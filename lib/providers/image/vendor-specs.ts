import type { ProviderFactory } from "../provider-factories";

/** Where an image vendor's key comes from and where it is sent by default: a factory's fields without its adapter. */
export type ImageVendorSpec = Omit<ProviderFactory, "create">;

/**
 * The image vendors' key fields. openai, gemini and openrouter have the text providers' ids,
 * default base URLs and environment variables, so a key saved in Settings -> Keys for their text
 * models serves their image models too, under the same base-URL rule. Gemini's image docs name
 * GEMINI_API_KEY, so it comes first here; the text side's GOOGLE_GENERATIVE_AI_API_KEY still
 * works. flux is image-only: the keys list takes it from here (see default-registry.ts).
 *
 * Kept apart from the adapters so that listing keys loads no image code.
 */
export const imageVendorSpecs = {
  openai: { id: "openai", label: "OpenAI", needsKey: true, defaultBaseURL: "https://api.openai.com/v1", envKey: "OPENAI_API_KEY" },
  gemini: {
    id: "gemini",
    label: "Gemini",
    needsKey: true,
    defaultBaseURL: "https://generativelanguage.googleapis.com/v1beta",
    envKey: "GEMINI_API_KEY",
    envKeyAliases: ["GOOGLE_GENERATIVE_AI_API_KEY"],
  },
  flux: { id: "flux", label: "Black Forest Labs (FLUX)", needsKey: true, defaultBaseURL: "https://api.bfl.ai", envKey: "BFL_API_KEY" },
  openrouter: {
    id: "openrouter",
    label: "OpenRouter",
    needsKey: true,
    defaultBaseURL: "https://openrouter.ai/api/v1",
    envKey: "OPENROUTER_API_KEY",
  },
} satisfies Record<string, ImageVendorSpec>;
