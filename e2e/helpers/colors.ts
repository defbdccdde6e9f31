import type { Locator } from "@playwright/test";

/**
 * An element's computed colour as [r, g, b], whatever notation the browser answers (Tailwind 4
 * gives oklch): drawn on a 1x1 canvas and read back.
 */
export async function rgbOf(
  locator: Locator,
  property: "backgroundColor" | "borderTopColor" | "color" = "color",
): Promise<[number, number, number]> {
  return locator.evaluate((element, name) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d")!;
    context.fillStyle = getComputedStyle(element)[name];
    context.fillRect(0, 0, 1, 1);
    const [red, green, blue] = context.getImageData(0, 0, 1, 1).data;
    return [red, green, blue] as [number, number, number];
  }, property);
}
