import type sharp from "sharp";
import { malformed } from "./image-http";
import type { GeneratedImage } from "./types";

const mediaTypes: Record<string, string> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" };

/**
 * The image as a GeneratedImage: its type and size read from the bytes themselves (a vendor's
 * word, or a data URL's, is not trusted). Bytes that are no image we can read are the vendor's
 * malformed answer, caught here rather than written to disk as a broken file.
 */
export async function describeImage(data: Uint8Array, provider: string): Promise<GeneratedImage> {
  let metadata: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    // sharp (a native library) loads on the first image, not at every start of the server or CLI
    const { default: load } = await import("sharp");
    metadata = await load(data).metadata();
  } catch (error) {
    throw malformed({ provider }, "image data that is not an image", error);
  }
  const mediaType = metadata.format ? mediaTypes[metadata.format] : undefined;
  if (!mediaType) throw malformed({ provider }, `an image in a format this workbench does not save (${metadata.format ?? "unknown"})`);
  return { data, mediaType, width: metadata.width ?? null, height: metadata.height ?? null };
}
