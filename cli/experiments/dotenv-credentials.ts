import type { ProviderFactory } from "@/lib/providers/provider-factories";
import type { CredentialSource } from "@/lib/providers/registry";

/** The environment variables of a provider's key and base URL, as the app reads them too. */
export function providerVariables(factory: ProviderFactory): { keys: string[]; baseUrl: string } {
  return {
    keys: [factory.envKey, ...(factory.envKeyAliases ?? [])].filter((name): name is string => Boolean(name)),
    baseUrl: `${factory.id.toUpperCase().replaceAll("-", "_")}_BASE_URL`,
  };
}

/** Which of a provider's variables the working directory's .env sets, if any. */
export function dotenvVariablesFor(
  dotenv: Record<string, string>,
  factory: ProviderFactory,
): { keyName: string | null; baseUrlName: string | null } {
  const { keys, baseUrl } = providerVariables(factory);
  return { keyName: keys.find((name) => dotenv[name]) ?? null, baseUrlName: dotenv[baseUrl] ? baseUrl : null };
}

/** For --verbose: where a provider's key and address come from in this run. */
export function describeCredentialSource(dotenv: Record<string, string>, factory: ProviderFactory): string {
  const { keyName, baseUrlName } = dotenvVariablesFor(dotenv, factory);
  if (keyName || baseUrlName) return `${[keyName, baseUrlName].filter(Boolean).join(" and ")} from ./.env`;
  return "the key and address saved in Parallaxr (Settings -> Keys, or its own .env)";
}

/**
 * Credentials for `parallaxr run`: a key or base URL in the working directory's .env wins over
 * what is saved in the app (the spec's configuration is that .env); else the stored ones. The
 * working directory's addresses may be private (Ollama on this machine is the spec's default):
 * the person running the command chose them.
 */
export function preferDotenv(dotenv: Record<string, string>): (stored: CredentialSource) => CredentialSource {
  return (stored) => {
    const source: CredentialSource = async (input) => {
      const { keyName, baseUrlName } = dotenvVariablesFor(dotenv, input.factory);
      if (!keyName && !baseUrlName) return stored(input);
      return {
        apiKey: keyName ? dotenv[keyName] : null,
        baseURL: baseUrlName ? dotenv[baseUrlName] : input.factory.defaultBaseURL,
        allowPrivateAddresses: true,
      };
    };
    source.forget = stored.forget;
    return source;
  };
}
