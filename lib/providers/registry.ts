import { ProviderError } from "./provider-error";
import type { ModelInfo, Provider, TextProvider } from "./types";

/** Resolves a provider name to its adapter. */
export interface ProviderRegistry {
  text(provider: string): TextProvider;
  listModels(): Promise<ModelInfo[]>;
  has(provider: string): boolean;
}

/** A registry over the given adapters. */
export function createProviderRegistry(providers: Provider[]): ProviderRegistry {
  const byId = new Map(providers.map((provider) => [provider.id, provider]));
  return {
    has: (id) => byId.has(id),
    text(id) {
      const provider = byId.get(id);
      if (!provider) {
        throw new ProviderError({
          code: "bad_request",
          message: `Unknown provider "${id}". Known providers: ${[...byId.keys()].join(", ")}.`,
        });
      }
      if (provider.kind !== "text") {
        throw new ProviderError({ code: "bad_request", message: `Provider "${id}" makes images, not text.` });
      }
      return provider;
    },
    async listModels() {
      const lists = await Promise.all([...byId.values()].map((provider) => provider.listModels()));
      return lists.flat();
    },
  };
}
