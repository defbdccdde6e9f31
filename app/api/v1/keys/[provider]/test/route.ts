import { keyTestResultSchema } from "@/lib/api/responses";
import { providerParamsSchema, testProviderKeySchema } from "@/lib/api/schemas";
import { isProviderError } from "@/lib/providers/provider-error";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * Tries the caller's credentials for a provider with a minimal real call (one token). Answers
 * {ok: true, latencyMs} or {ok: false, code, message}; the message never holds the key.
 */
export const POST = route(
  { params: providerParamsSchema, body: testProviderKeySchema, output: keyTestResultSchema },
  async ({ caller, params, body, app }) => {
    const started = performance.now();
    try {
      const provider = await app.providers.resolve({ provider: params.provider, userId: caller.userId });
      await provider.generate({
        model: body.model,
        prompt: "Say OK.",
        params: { maxTokens: 1 },
        variables: {},
        signal: AbortSignal.timeout(20_000),
      });
      return { ok: true, latencyMs: Math.round(performance.now() - started) };
    } catch (error) {
      if (!isProviderError(error)) throw error;
      return { ok: false, code: error.code, message: error.message };
    }
  },
);
