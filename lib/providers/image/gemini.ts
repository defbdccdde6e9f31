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
import { geminiAspectRatio } from "./size";
import type { GeneratedImage, ImageModelProvider } from "./types";

// Why Gemini stops without an image on safety grounds: promptFeedback.blockReason and a
// candidate's finishReason (google.ai.generativelanguage.v1beta FinishReason, BlockReason).
const refusalReasons = new Set([
  "SAFETY",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
  "RECITATION",
]);

// provider_options keys written the matrix's way, and where Gemini wants them.
const imageConfigKeys: Record<string, string> = { image_size: "imageSize", aspect_ratio: "aspectRatio" };

/**
 * Gemini's image output through generateContent: POST {base}/models/{model}:generateContent with
 * responseModalities TEXT and IMAGE and an imageConfig (aspectRatio such as "4:5", imageSize such
 * as "2K"); the images come back as inline base64 parts of the first candidate. A size in pixels
 * is sent as its aspect ratio when that is one Gemini makes. Other provider_options go into
 * generationConfig under their own names (safety_settings to safetySettings), so an option Gemini
 * does not know comes back as its INVALID_ARGUMENT, with its message.
 */
export function createGeminiImageProvider(options: ImageAdapterOptions): ImageModelProvider {
  const fetch = imageFetch(options, "Gemini");
  return {
    id: "gemini",
    kind: "image",

    generate: (request) =>
      withCallSignal(request, "Gemini", async (signal) => {
        refuseWhatCannotBeMade("gemini", request);
        const started = performance.now();
        const context: ErrorContext = {
          provider: "Gemini",
          model: request.model,
          apiKey: options.apiKey,
          signal,
          codes: {
            auth: ["API_KEY_INVALID", "UNAUTHENTICATED", "PERMISSION_DENIED"],
            modelNotFound: ["NOT_FOUND"],
            rateLimited: ["RESOURCE_EXHAUSTED"],
            server: ["INTERNAL", "UNAVAILABLE"],
          },
        };
        const warnings: string[] = [];
        const imageConfig: Record<string, unknown> = {};
        // Checked by refuseWhatCannotBeMade: a size here has a ratio Gemini makes.
        if (request.size) imageConfig.aspectRatio = geminiAspectRatio(request.size);
        const generationConfig: Record<string, unknown> = {
          responseModalities: ["TEXT", "IMAGE"],
          ...definedFields({ seed: request.seed, candidateCount: request.n && request.n > 1 ? request.n : null }),
        };
        let safetySettings: unknown;
        for (const [key, value] of Object.entries(request.providerOptions ?? {})) {
          if (key in imageConfigKeys) imageConfig[imageConfigKeys[key]] = value;
          else if (key === "safety_settings") safetySettings = value;
          else generationConfig[key] = value;
        }
        if (Object.keys(imageConfig).length > 0) generationConfig.imageConfig = imageConfig;
        if (request.quality)
          warnings.push(`Gemini has no quality setting: quality "${request.quality}" was not sent (image_size sets the resolution).`);
        if (request.background) warnings.push(`Gemini has no background setting: background "${request.background}" was not sent.`);
        const body = {
          contents: [{ role: "user", parts: [{ text: request.prompt }] }],
          generationConfig,
          ...(safetySettings === undefined ? {} : { safetySettings }),
        };
        const endpoint = `${options.baseURL}/models/${encodeURIComponent(request.model)}:generateContent`;
        const answer = await sendImageRequest({
          url: endpoint,
          method: "POST",
          body,
          headers: options.apiKey ? { "x-goog-api-key": options.apiKey } : {},
          fetch,
          signal,
          context,
        });
        const response = answer.body;
        if (!isRecord(response)) throw malformed(context, "an answer that is not an object");
        const blockReason = isRecord(response.promptFeedback) ? response.promptFeedback.blockReason : undefined;
        if (typeof blockReason === "string") {
          throw new ImageProviderError({
            kind: "content_policy",
            statusCode: answer.status,
            message: `Gemini blocked the prompt (${blockReason}).`,
          });
        }
        const candidates = Array.isArray(response.candidates) ? response.candidates.filter(isRecord) : [];
        const images: GeneratedImage[] = [];
        const texts: string[] = [];
        const finishReasons: string[] = [];
        for (const candidate of candidates) {
          if (typeof candidate.finishReason === "string") finishReasons.push(candidate.finishReason);
          const parts =
            isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts.filter(isRecord) : [];
          for (const part of parts) {
            if (typeof part.text === "string" && part.thought !== true) texts.push(part.text);
            const inline = isRecord(part.inlineData) ? part.inlineData : null;
            if (!inline || part.thought === true) continue;
            const bytes = decodeBase64(inline.data);
            if (!bytes) throw malformed(context, "an inline image part whose data is not base64");
            images.push(await describeImage(bytes, "Gemini"));
          }
        }
        if (images.length === 0) {
          const refusal = finishReasons.find((reason) => refusalReasons.has(reason));
          if (refusal) {
            throw new ImageProviderError({
              kind: "content_policy",
              statusCode: answer.status,
              message: `Gemini stopped without an image (${refusal}).`,
            });
          }
          const why = finishReasons.length > 0 ? `finish reason ${finishReasons.join(", ")}` : "no candidates";
          throw malformed(context, `an answer with no image (${why})`);
        }
        if (request.outputFormat && images.some((image) => image.mediaType !== `image/${request.outputFormat}`)) {
          warnings.push(
            `Gemini chooses the image format itself: output_format ${request.outputFormat} was asked, ${images[0].mediaType} came back.`,
          );
        }
        return {
          images,
          warnings,
          receipt: {
            provider: "gemini",
            model: request.model,
            endpoint,
            request: body,
            response: {
              response_id: response.responseId ?? null,
              model_version: response.modelVersion ?? null,
              finish_reasons: finishReasons,
              ...(texts.length > 0 ? { text: texts.join("\n") } : {}),
            },
            usage: isRecord(response.usageMetadata) ? response.usageMetadata : null,
            costUsd: null,
            latencyMs: Math.round(performance.now() - started),
          },
        };
      }),

    async listModels(): Promise<ModelInfo[]> {
      return ["gemini-2.5-flash-image", "gemini-3-pro-image-preview"].map((model) => ({ provider: "gemini", model, label: model }));
    },
  };
}
