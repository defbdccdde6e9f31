import type { ErrorContext } from "../adapters/classify-error";
import type { ModelInfo } from "../types";
import { describeImage } from "./describe-image";
import type { ImageAdapterOptions } from "./image-adapter-options";
import {
  refuseWhatCannotBeMade,
  withCallSignal,
  decodeBase64,
  definedFields,
  imageFetch,
  isRecord,
  malformed,
  sendImageRequest,
} from "./image-http";
import type { GeneratedImage, ImageModelProvider } from "./types";

// The codes OpenAI's error body carries when its safety system refuses an image prompt
// (gpt-image: moderation_blocked; DALL-E: content_policy_violation).
const contentPolicyCodes = new Set(["moderation_blocked", "content_policy_violation"]);

/**
 * OpenAI's Image API for gpt-image models: POST {base}/images/generations (the base URL holds the
 * /v1, as the text adapter's does) with model, prompt, n, size, quality, background,
 * output_format and moderation; the answer carries each image as b64_json and, for gpt-image
 * models, token usage. provider_options are sent as body fields under their own names, so an
 * option OpenAI does not know comes back as its 400, with its message.
 */
export function createOpenAIImageProvider(options: ImageAdapterOptions): ImageModelProvider {
  const fetch = imageFetch(options, "OpenAI");
  const endpoint = `${options.baseURL}/images/generations`;
  return {
    id: "openai",
    kind: "image",

    generate: (request) =>
      withCallSignal(request, "OpenAI", async (signal) => {
        refuseWhatCannotBeMade("openai", request);
        const started = performance.now();
        const context: ErrorContext = {
          provider: "OpenAI",
          model: request.model,
          apiKey: options.apiKey,
          signal,
          codes: {
            auth: ["invalid_api_key"],
            modelNotFound: ["model_not_found"],
            rateLimited: ["rate_limit_exceeded"],
            quotaExhausted: ["insufficient_quota", "billing_hard_limit_reached"],
            server: ["server_error"],
          },
        };
        const warnings: string[] = [];
        const body: Record<string, unknown> = {
          model: request.model,
          prompt: request.prompt,
          ...definedFields({
            n: request.n,
            size: request.size,
            quality: request.quality,
            background: request.background,
            output_format: request.outputFormat,
          }),
        };
        for (const [key, value] of Object.entries(request.providerOptions ?? {})) {
          if (key === "model" || key === "prompt") {
            warnings.push(`provider_options.${key} is ignored: the job's own ${key} is sent.`);
            continue;
          }
          body[key] = value;
        }
        if (request.seed !== undefined && request.seed !== null) {
          warnings.push("OpenAI's Image API takes no seed: the seed is recorded but not sent.");
        }
        const answer = await sendImageRequest({
          url: endpoint,
          method: "POST",
          body,
          headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
          fetch,
          signal,
          context,
          isContentPolicy: (errorBody) =>
            isRecord(errorBody) && isRecord(errorBody.error) && contentPolicyCodes.has(String(errorBody.error.code)),
        });
        const response = answer.body;
        if (!isRecord(response) || !Array.isArray(response.data)) throw malformed(context, "an answer without a data list");
        if (response.data.length === 0) throw malformed(context, "an answer with no images");
        const images: GeneratedImage[] = [];
        const revisedPrompts: Array<string | null> = [];
        for (const entry of response.data) {
          const bytes = isRecord(entry) ? decodeBase64(entry.b64_json) : null;
          if (!bytes) {
            // dall-e models answer with url unless asked for b64_json; gpt-image always sends b64_json.
            throw malformed(context, "an image without b64_json data (only gpt-image models are supported, which always send it)");
          }
          images.push(await describeImage(bytes, "OpenAI"));
          revisedPrompts.push(isRecord(entry) && typeof entry.revised_prompt === "string" ? entry.revised_prompt : null);
        }
        return {
          images,
          warnings,
          receipt: {
            provider: "openai",
            model: request.model,
            endpoint,
            request: body,
            response: {
              created: response.created ?? null,
              size: response.size ?? null,
              quality: response.quality ?? null,
              background: response.background ?? null,
              output_format: response.output_format ?? null,
              request_id: answer.headers.get("x-request-id"),
              ...(revisedPrompts.some((prompt) => prompt !== null) ? { revised_prompts: revisedPrompts } : {}),
            },
            usage: isRecord(response.usage) ? response.usage : null,
            // OpenAI reports tokens, not dollars: the price reference turns them into cost.
            costUsd: null,
            latencyMs: Math.round(performance.now() - started),
          },
        };
      }),

    async listModels(): Promise<ModelInfo[]> {
      return ["gpt-image-1.5", "gpt-image-1", "gpt-image-1-mini"].map((model) => ({ provider: "openai", model, label: model }));
    },
  };
}
