import { createHash } from "node:crypto";
import { isProviderError, ProviderError } from "./provider-error";
import type { ProviderCredentials, ProviderFactory } from "./provider-factories";
import type { ModelInfo, TextProvider } from "./types";

/** Finds the credentials userId has for a provider (a stored key, or the environment's). */
export type CredentialSource = ((input: { provider: string; userId: string; factory: ProviderFactory }) => Promise<ProviderCredentials>) & {
  /** Drops what is remembered of userId's credential for provider (after a key is saved or removed). */
  forget?(input: { provider: string; userId: string }): void;
};

/** Resolves a provider name to an adapter, with the calling user's credentials. */
export interface ProviderRegistry {
  /** The adapter for provider as userId may use it; throws a ProviderError when it cannot. */
  resolve(input: { provider: string; userId: string }): Promise<TextProvider>;
  has(provider: string): boolean;
  /** Call after userId's key for provider changed, so the next call uses the new one. */
  forgetCredentials(input: { provider: string; userId: string }): void;
  /**
   * Every provider's id and label, keyless ones first, with the base URL a key saved without one
   * is sent to (null for providers that have none, or take no key).
   */
  list(): Array<{ id: string; label: string; needsKey: boolean; defaultBaseUrl: string | null }>;
  /** Models of the providers that need no key (the mock, local models). */
  listModels(): Promise<ModelInfo[]>;
  /**
   * What userId can pick: the keyless providers' models, and each vendor's for which the user
   * has credentials. A vendor whose list cannot be had now (unreachable, key refused) is listed
   * under unavailable with the reason, and the others still answer.
   */
  listModelsFor(userId: string): Promise<{
    models: ModelInfo[];
    providers: Array<{ id: string; label: string; needsKey: boolean; configured: boolean }>;
    unavailable: Array<{ provider: string; code: string; message: string }>;
  }>;
}

/**
 * A registry over ready-made keyless providers (the mock, local models) and factories for the
 * vendors, whose adapters are built per credential and reused while the credential is the same.
 */
export function createProviderRegistry(
  providers: TextProvider[],
  {
    factories = {},
    credentials,
    keyOnly = [],
  }: {
    factories?: Record<string, ProviderFactory>;
    credentials?: CredentialSource;
    /** Providers listed for Settings -> Keys that have no text models (FLUX's image API); not resolvable here. */
    keyOnly?: Array<Omit<ProviderFactory, "create">>;
  } = {},
): ProviderRegistry {
  const ready = new Map(providers.map((provider) => [provider.id, provider]));
  const built = new Map<string, TextProvider>();
  const known = () => [...ready.keys(), ...Object.keys(factories)];

  return {
    has: (id) => ready.has(id) || id in factories,
    forgetCredentials: (input) => credentials?.forget?.(input),
    list: () => [
      ...[...ready.values()].map((provider) => ({ id: provider.id, label: provider.id, needsKey: false, defaultBaseUrl: null })),
      ...Object.values(factories).map((factory) => ({
        id: factory.id,
        label: factory.label,
        needsKey: factory.needsKey,
        defaultBaseUrl: factory.defaultBaseURL,
      })),
      ...keyOnly.map((spec) => ({ id: spec.id, label: spec.label, needsKey: spec.needsKey, defaultBaseUrl: spec.defaultBaseURL })),
    ],
    async resolve({ provider, userId }) {
      const direct = ready.get(provider);
      if (direct) return direct;
      const factory = factories[provider];
      if (!factory) {
        throw new ProviderError({
          code: "bad_request",
          message: `Unknown provider "${provider}". Known providers: ${known().join(", ")}.`,
        });
      }
      if (!credentials) throw new ProviderError({ code: "auth", message: `No credentials are configured for ${factory.label}.` });
      const credential = await credentials({ provider, userId, factory });
      // The cache key holds a hash of the key, never the key.
      const cacheKey = `${provider}|${credential.baseURL ?? ""}|${credential.allowPrivateAddresses ?? ""}|${createHash("sha256")
        .update(credential.apiKey ?? "")
        .digest("hex")}`;
      let adapter = built.get(cacheKey);
      if (!adapter) {
        adapter = factory.create(credential);
        if (built.size > 500) built.clear();
        built.set(cacheKey, adapter);
      }
      return adapter;
    },
    async listModels() {
      const lists = await Promise.all([...ready.values()].map((provider) => provider.listModels()));
      return lists.flat();
    },
    async listModelsFor(userId) {
      const models = await this.listModels();
      const providers = [...ready.values()].map((provider) => ({ id: provider.id, label: provider.id, needsKey: false, configured: true }));
      const unavailable: Array<{ provider: string; code: string; message: string }> = [];
      const settled = await Promise.allSettled(
        Object.values(factories).map(async (factory) => {
          const adapter = await this.resolve({ provider: factory.id, userId });
          try {
            return { factory, models: await withTimeout(adapter.listModels(), listTimeoutMs, factory.label) };
          } catch (error) {
            // A provider nobody set up (only its default address, a local Ollama) that does not
            // answer is simply not set up: its connection error means nothing to that person.
            const credential = await credentials?.({ provider: factory.id, userId, factory });
            if (credential?.implicit && isProviderError(error)) throw new ProviderError({ code: "auth", message: error.message });
            throw error;
          }
        }),
      );
      settled.forEach((outcome, index) => {
        const factory = Object.values(factories)[index];
        if (outcome.status === "fulfilled") {
          providers.push({ id: factory.id, label: factory.label, needsKey: factory.needsKey, configured: true });
          models.push(...outcome.value.models);
          return;
        }
        const error = outcome.reason;
        if (!isProviderError(error)) throw error;
        // No key, or no base URL for a generic server: simply not configured. Anything else is
        // worth saying (a local Ollama that is not running, a refused list request).
        const configured = error.code !== "auth" && error.code !== "bad_request";
        providers.push({ id: factory.id, label: factory.label, needsKey: factory.needsKey, configured });
        if (configured) unavailable.push({ provider: factory.id, code: error.code, message: error.message });
      });
      return { models, providers, unavailable };
    },
  };
}

// A vendor's model list must not hold up the picker.
const listTimeoutMs = 5_000;

function withTimeout<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ProviderError({ code: "timeout", message: `${label} did not list its models within ${ms / 1000} s.` })),
      ms,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
