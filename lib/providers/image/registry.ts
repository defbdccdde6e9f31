import { createHash } from "node:crypto";
import { checkBaseUrl } from "../base-url-policy";
import { ProviderError } from "../provider-error";
import type { ProviderCredentials, ProviderFactory } from "../provider-factories";
import type { CredentialSource } from "../registry";
import { createFluxImageProvider } from "./flux";
import { createGeminiImageProvider } from "./gemini";
import type { ImageAdapterOptions } from "./image-adapter-options";
import { createOpenAIImageProvider } from "./openai";
import { createOpenRouterImageProvider } from "./openrouter";
import type { ImageModelProvider } from "./types";
import { imageVendorSpecs } from "./vendor-specs";

/** How to make an image provider's adapter, and where its key comes from (the text factories' fields). */
export interface ImageProviderFactory extends Omit<ProviderFactory, "create"> {
  create(
    credentials: ProviderCredentials,
    options?: Pick<ImageAdapterOptions, "fetch" | "resolveHost" | "pollIntervalMs" | "maxDownloadBytes">,
  ): ImageModelProvider;
}

/** The image vendors, by provider id. */
export const imageProviderFactories: Record<string, ImageProviderFactory> = {
  openai: imageVendor(imageVendorSpecs.openai, createOpenAIImageProvider),
  gemini: imageVendor(imageVendorSpecs.gemini, createGeminiImageProvider),
  flux: imageVendor(imageVendorSpecs.flux, createFluxImageProvider),
  openrouter: imageVendor(imageVendorSpecs.openrouter, createOpenRouterImageProvider),
};

/** Resolves an image provider id to an adapter, with the calling user's credentials. */
export interface ImageProviderRegistry {
  /** The adapter for provider as userId may use it; throws a ProviderError when it cannot (unknown, no key). */
  resolve(input: { provider: string; userId: string }): Promise<ImageModelProvider>;
  has(provider: string): boolean;
  /** Every image provider's id and label, keyless ones first, with the base URL a key saved without one goes to. */
  list(): Array<{ id: string; label: string; needsKey: boolean; defaultBaseUrl: string | null }>;
}

/**
 * A registry over ready-made keyless image providers (the mock) and factories for the vendors.
 * Credentials come from the same source as the text providers' (createCredentialSource: a stored
 * key bound to its base URL, else the local user's environment), and adapters are reused while
 * the credential is the same.
 */
export function createImageProviderRegistry(
  providers: ImageModelProvider[],
  {
    factories = imageProviderFactories,
    credentials,
  }: { factories?: Record<string, ImageProviderFactory>; credentials?: CredentialSource } = {},
): ImageProviderRegistry {
  const ready = new Map(providers.map((provider) => [provider.id, provider]));
  const built = new Map<string, ImageModelProvider>();
  const known = () => [...ready.keys(), ...Object.keys(factories)];
  return {
    has: (id) => ready.has(id) || Object.hasOwn(factories, id),
    list: () => [
      ...[...ready.values()].map((provider) => ({ id: provider.id, label: provider.id, needsKey: false, defaultBaseUrl: null })),
      ...Object.values(factories).map((factory) => ({
        id: factory.id,
        label: factory.label,
        needsKey: factory.needsKey,
        defaultBaseUrl: factory.defaultBaseURL,
      })),
    ],
    async resolve({ provider, userId }) {
      const direct = ready.get(provider);
      if (direct) return direct;
      const factory = Object.hasOwn(factories, provider) ? factories[provider] : undefined;
      if (!factory) {
        throw new ProviderError({
          code: "bad_request",
          message: `Unknown image provider "${provider}". Known image providers: ${known().join(", ")}.`,
        });
      }
      if (!credentials) throw new ProviderError({ code: "auth", message: `No credentials are configured for ${factory.label}.` });
      const credential = await credentials({ provider, userId, factory: asKeyDescriptor(factory) });
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
  };
}

/**
 * The credential source reads only a factory's key fields (label, envKey, defaultBaseURL,
 * needsKey); its type asks for a text factory. This hands it those fields, with a create that
 * says where image adapters are made instead of making a text one.
 */
function asKeyDescriptor(factory: ImageProviderFactory): ProviderFactory {
  return {
    ...factory,
    create: () => {
      throw new Error(`${factory.label}'s image adapter is made by the image provider registry, not as a text provider.`);
    },
  };
}

function imageVendor(
  spec: Omit<ImageProviderFactory, "create">,
  build: (options: ImageAdapterOptions) => ImageModelProvider,
): ImageProviderFactory {
  return {
    ...spec,
    create: (credentials, options) => {
      const apiKey = credentials.apiKey?.trim() || null;
      if (spec.needsKey && !apiKey) {
        throw new ProviderError({
          code: "auth",
          message: `${spec.label} needs an API key: add one in Settings -> Keys${spec.envKey ? `, or set ${spec.envKey}` : ""}.`,
        });
      }
      return build({ ...options, apiKey, baseURL: baseUrlOf(credentials, spec), allowPrivateAddresses: credentials.allowPrivateAddresses });
    },
  };
}

function baseUrlOf(credentials: ProviderCredentials, spec: Omit<ImageProviderFactory, "create">): string {
  const value = credentials.baseURL?.trim() || spec.defaultBaseURL;
  if (!value) throw new ProviderError({ code: "bad_request", message: `${spec.label} needs a base URL.` });
  // As for the text adapters: never file:, data: or a URL with credentials in it, whoever chose it;
  // private addresses are the credential source's call.
  const verdict = checkBaseUrl(value, { allowPrivate: true });
  if (!verdict.ok) throw new ProviderError({ code: "bad_request", message: `${spec.label}'s base URL is refused: ${verdict.message}` });
  return value.replace(/\/+$/, "");
}
