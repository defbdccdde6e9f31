/**
 * Which provider serves an eval config's model name (specs/eval-config.md names bare vendor ids
 * such as claude-sonnet-4-20250514). A bare name goes by its prefix: claude-* to anthropic, gpt-*
 * and o<digit>* (o1, o3-mini) to openai, gemini-* to gemini. Anything else is written
 * provider/model, the first segment a provider id (openrouter/meta-llama/llama-3-8b keeps the
 * rest whole as the model), and mock/<model> needs no key. A bare name no rule matches is an
 * error that quotes the rule, never a guess.
 *
 * The provider ids come from the caller (lib/providers' factories), so this stays pure.
 */

/** The built-in keyless provider: its models answer without a key or a network. */
export const MOCK_PROVIDER = "mock";

/** A model name resolved to the provider that serves it and the id that provider knows it by. */
export interface ModelRoute {
  provider: string;
  model: string;
}

/** The rule for bare names, quoted in the error for a name it does not cover. */
export const MODEL_NAME_RULE =
  "a bare model name must start with claude- (anthropic), gpt- or o<digit> (openai) or gemini- (gemini); write any other model as provider/model, e.g. mock/echo or ollama/llama3";

const BARE_NAME_RULES: Array<{ pattern: RegExp; provider: string }> = [
  { pattern: /^claude-/, provider: "anthropic" },
  { pattern: /^gpt-/, provider: "openai" },
  { pattern: /^o\d/, provider: "openai" },
  { pattern: /^gemini-/, provider: "gemini" },
];

/**
 * The provider and model id for name, or the error to show. providerIds are the providers that
 * can be called (the factories' ids); the mock is always known.
 */
export function routeModel(name: string, providerIds: readonly string[]): { ok: true; route: ModelRoute } | { ok: false; error: string } {
  const known = new Set([MOCK_PROVIDER, ...providerIds]);
  if (name.trim() === "") return { ok: false, error: "The model name is empty" };
  if (/\s/.test(name)) return { ok: false, error: `Model "${name}" has white space in its name` };

  const slash = name.indexOf("/");
  if (slash !== -1) {
    const provider = name.slice(0, slash);
    const model = name.slice(slash + 1);
    if (!known.has(provider)) {
      return { ok: false, error: `Model "${name}" names an unknown provider "${provider}"; known providers: ${[...known].join(", ")}` };
    }
    if (model === "") return { ok: false, error: `Model "${name}" names no model after "${provider}/"` };
    return { ok: true, route: { provider, model } };
  }

  const rule = BARE_NAME_RULES.find((candidate) => candidate.pattern.test(name));
  if (!rule) return { ok: false, error: `Model "${name}" has no provider: ${MODEL_NAME_RULE}` };
  if (!known.has(rule.provider)) return { ok: false, error: `Model "${name}" is served by ${rule.provider}, which is not available here` };
  return { ok: true, route: { provider: rule.provider, model: name } };
}
