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
import { ImageProviderError } from "./image-provider-error";
import { parseSize, reduceRatio } from "./size";
import type { GeneratedImage, ImageModelProvider } from "./types";

// provider_options keys that belong in OpenRouter's image_config.
const imageConfigKeys = new Set(["aspect_ratio", "image_size"]);

/**
 * OpenRouter's image output (https://openrouter.ai/docs/features/multimodal/image-generation):
 * chat completions with modalities ["image", "text"]; the images come back in
 * choices[].message.images as data URLs, and usage carries OpenRouter's own cost in dollars. An
 * aspect ratio (a size such as "4:5", or a pixel size's ratio) and image_size go in image_config;
 * other provider_options are body fields under their own names. An image sent as a link instead
 * of data is not fetched (the link could name any address): that answer is malformed.
 *
 * Moderation refusals: OpenRouter answers 403 with error.metadata.reasons (the flagged
 * categories), or a choice ends with finish_reason content_filter.
 */
export function createOpenRouterImageProvider(options: ImageAdapterOptions): ImageModelProvider {
  const fetch = imageFetch(options, "OpenRouter");
  const endpoint = `${options.baseURL}/chat/completions`;
  return {
    id: "openrouter",
    kind: "image",

    generate: (request) =>
      withCallSignal(request, "OpenRouter", async (signal) => {
        refuseWhatCannotBeMade("openrouter", request);
        const started = performance.now();
        const context: ErrorContext = {
          provider: "OpenRouter",
          model: request.model,
          apiKey: options.apiKey,
          signal,
          codes: { modelNotFound: ["model_not_found"] },
        };
        const warnings: string[] = [];
        const imageConfig: Record<string, unknown> = {};
        if (request.size) imageConfig.aspect_ratio = aspectRatioOf(request.size);
        const extra: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(request.providerOptions ?? {})) {
          if (imageConfigKeys.has(key)) imageConfig[key] = value;
          else if (key === "model" || key === "messages")
            warnings.push(`provider_options.${key} is ignored: the job's own ${key === "model" ? "model" : "prompt"} is sent.`);
          else extra[key] = value;
        }
        if (request.quality) warnings.push(`OpenRouter has no quality setting for images: quality "${request.quality}" was not sent.`);
        if (request.background)
          warnings.push(`OpenRouter has no background setting for images: background "${request.background}" was not sent.`);
        const body: Record<string, unknown> = {
          model: request.model,
          messages: [{ role: "user", content: request.prompt }],
          modalities: ["image", "text"],
          ...(Object.keys(imageConfig).length > 0 ? { image_config: imageConfig } : {}),
          ...definedFields({ seed: request.seed }),
          ...extra,
        };
        const answer = await sendImageRequest({
          url: endpoint,
          method: "POST",
          body,
          headers: { ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}), "X-Title": "Parallaxr" },
          fetch,
          signal,
          context,
          isContentPolicy: (errorBody) =>
            isRecord(errorBody) &&
            isRecord(errorBody.error) &&
            isRecord(errorBody.error.metadata) &&
            Array.isArray(errorBody.error.metadata.reasons),
        });
        const response = answer.body;
        if (!isRecord(response) || !Array.isArray(response.choices)) throw malformed(context, "an answer without choices");
        const images: GeneratedImage[] = [];
        const finishReasons: string[] = [];
        const texts: string[] = [];
        for (const choice of response.choices.filter(isRecord)) {
          if (typeof choice.finish_reason === "string") finishReasons.push(choice.finish_reason);
          const message = isRecord(choice.message) ? choice.message : {};
          if (typeof message.content === "string" && message.content !== "") texts.push(message.content);
          for (const entry of Array.isArray(message.images) ? message.images : []) {
            const url = isRecord(entry) && isRecord(entry.image_url) ? entry.image_url.url : null;
            const bytes = dataUrlBytes(url);
            if (!bytes) throw malformed(context, "an image that is not a base64 data URL (links are not fetched)");
            images.push(await describeImage(bytes, "OpenRouter"));
          }
        }
        if (images.length === 0) {
          if (finishReasons.includes("content_filter")) {
            throw new ImageProviderError({
              kind: "content_policy",
              statusCode: answer.status,
              message: "OpenRouter's model stopped without an image (content_filter).",
            });
          }
          throw malformed(
            context,
            `an answer with no image (finish reason ${finishReasons.join(", ") || "none"}): is ${request.model} a model with image output?`,
          );
        }
        if (request.outputFormat && images.some((image) => image.mediaType !== `image/${request.outputFormat}`)) {
          warnings.push(
            `OpenRouter's models choose the image format: output_format ${request.outputFormat} was asked, ${images[0].mediaType} came back.`,
          );
        }
        const usage = isRecord(response.usage) ? response.usage : null;
        const cost = usage?.cost;
        return {
          images,
          warnings,
          receipt: {
            provider: "openrouter",
            model: request.model,
            endpoint,
            request: body,
            response: {
              id: response.id ?? null,
              created: response.created ?? null,
              model: response.model ?? null,
              provider: response.provider ?? null,
              finish_reasons: finishReasons,
              ...(texts.length > 0 ? { text: texts.join("\n") } : {}),
            },
            usage,
            costUsd: typeof cost === "number" && Number.isFinite(cost) ? cost : null,
            latencyMs: Math.round(performance.now() - started),
          },
        };
      }),

    async listModels(): Promise<ModelInfo[]> {
      return ["google/gemini-2.5-flash-image", "openai/gpt-5-image-mini"].map((model) => ({ provider: "openrouter", model, label: model }));
    },
  };
}

function aspectRatioOf(size: string): string | null {
  // Checked by refuseWhatCannotBeMade: a size here parses.
  const parsed = parseSize(size);
  if (!parsed) return null;
  return parsed.kind === "ratio" ? `${parsed.width}:${parsed.height}` : reduceRatio(parsed.width, parsed.height);
}

function dataUrlBytes(url: unknown): Uint8Array | null {
  if (typeof url !== "string") return null;
  const match = /^data:image\/[a-z0-9.+-]+;base64,(.*)$/is.exec(url);
  return match ? decodeBase64(match[1]) : null;
}
