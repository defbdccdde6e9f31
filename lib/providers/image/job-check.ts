import {
  GEMINI_ASPECT_RATIOS,
  geminiAspectRatio,
  MOCK_MAX_SIDE,
  MOCK_MIN_SIDE,
  mockDimensions,
  OPENAI_IMAGE_SIZES,
  parseSize,
} from "./size";
import type { ImageGenerationRequest } from "./types";

/** The most images the mock makes in one call. */
export const MOCK_MAX_IMAGES_PER_CALL = 10;

/**
 * What a provider cannot make of a job, in words for the person who wrote the matrix, or null when
 * nothing is known to be wrong. No I/O: the batch's planner calls it for every job before the run
 * (a size the provider cannot make is an input error), and each adapter calls it again before
 * its request, so the plan and the call apply the same rule. Only what a vendor documents is
 * checked; anything else is sent, and a vendor's refusal comes back as its own error.
 */
export function imageJobProblem(provider: string, job: Pick<ImageGenerationRequest, "size" | "n" | "providerOptions">): string | null {
  const { size, n } = job;
  if (n !== undefined && n !== null && (!Number.isInteger(n) || n < 1)) return `n must be a whole number of images, 1 or more, not ${n}.`;
  switch (provider) {
    case "openai":
      if (size && !OPENAI_IMAGE_SIZES.includes(size.trim())) {
        return `OpenAI's gpt-image models make sizes ${OPENAI_IMAGE_SIZES.join(", ")}, not "${size}".`;
      }
      return null;
    case "gemini":
      if (size && geminiAspectRatio(size) === null) {
        return `Gemini cannot make size "${size}": give one of the aspect ratios ${GEMINI_ASPECT_RATIOS.join(", ")} (a pixel size is sent as its ratio).`;
      }
      return null;
    case "flux":
      if (n !== undefined && n !== null && n !== 1)
        return `Black Forest Labs makes one image per request, not n=${n}: use n: 1 and vary the seed for more.`;
      if (size && !parseSize(size))
        return `Black Forest Labs takes a size as WIDTHxHEIGHT (1024x1024) or an aspect ratio (16:9), not "${size}".`;
      return null;
    case "openrouter":
      if (n !== undefined && n !== null && n !== 1)
        return `OpenRouter's image models make one answer per request, not n=${n}: use n: 1 and vary the seed for more.`;
      if (size && !parseSize(size))
        return `OpenRouter takes a size as an aspect ratio (4:5) or a pixel size sent as its ratio, not "${size}".`;
      return null;
    case "mock": {
      if (n !== undefined && n !== null && n > MOCK_MAX_IMAGES_PER_CALL)
        return `The mock makes 1 to ${MOCK_MAX_IMAGES_PER_CALL} images per call, not n=${n}.`;
      const dimensions = mockDimensions(size ?? "1024x1024", job.providerOptions?.image_size);
      if (!dimensions) return `The mock takes a size as WIDTHxHEIGHT (1024x1536) or an aspect ratio (4:5), not "${size}".`;
      const { width, height } = dimensions;
      if (width < MOCK_MIN_SIDE || height < MOCK_MIN_SIDE || width > MOCK_MAX_SIDE || height > MOCK_MAX_SIDE) {
        return `The mock makes images of ${MOCK_MIN_SIDE} to ${MOCK_MAX_SIDE} px a side, not ${width}x${height}.`;
      }
      return null;
    }
    default:
      return null;
  }
}
