import { describe, expect, it } from "vitest";
import {
  filterGallery,
  flattenParams,
  galleryFacets,
  galleryItems,
  paramsBesideModel,
  statusByModel,
  type GalleryJob,
} from "@/components/batches/gallery-filter";

// The /batches gallery's filters and the status table's counts, on jobs shaped as run.json lists them.

function job(id: number, params: Record<string, unknown>, status = "success", images = 1): GalleryJob {
  const jobId = `j-${String(id).padStart(6, "0")}`;
  const files = Array.from(
    { length: status === "success" ? images : 0 },
    (_, i) => `${params.provider}-20260106T190342Z-${jobId}-0${i}.png`,
  );
  return {
    job_id: jobId,
    prompt_id: `p-000${Math.ceil(id / 4)}`,
    prompt: `prompt ${Math.ceil(id / 4)}`,
    params,
    status,
    artifacts: { image_paths: files, receipt_paths: files.map((file) => `receipt-${file.replace(/\.png$/, ".json")}`) },
  };
}

const JOBS: GalleryJob[] = [
  job(1, { provider: "openai", model: "gpt-image-1", size: "1024x1024", seed: 101, n: 1, provider_options: { quality: "low" } }),
  job(2, { provider: "openai", model: "gpt-image-1", size: "1024x1024", seed: 101, n: 1, provider_options: { quality: "high" } }),
  job(3, { provider: "gemini", model: "gemini-2.5-flash-image", size: "4:5", n: 2, provider_options: { image_size: "2K" } }, "success", 2),
  job(4, { provider: "mock", model: "mock-image", size: "256x256", seed: 7, n: 1, provider_options: {} }, "failed"),
  job(5, { provider: "openai", model: "gpt-image-1", size: "1024x1024", seed: 102, n: 1, provider_options: { quality: "low" } }),
];

describe("gallery items", () => {
  it("gives one item per image, with its receipt, in job order; failed jobs give none", () => {
    const items = galleryItems(JOBS);
    expect(items.map((item) => item.jobId)).toEqual(["j-000001", "j-000002", "j-000003", "j-000003", "j-000005"]);
    expect(items[3].file).toBe("gemini-20260106T190342Z-j-000003-01.png");
    expect(items[3].receipt).toBe("receipt-gemini-20260106T190342Z-j-000003-01.json");
    expect(items[0].promptId).toBe("p-0001");
  });

  it("says a missing receipt as null rather than pairing the image with another's", () => {
    const lone = { ...JOBS[0], artifacts: { image_paths: ["a.png", "b.png"], receipt_paths: ["receipt-a.json"] } };
    expect(galleryItems([lone]).map((item) => item.receipt)).toEqual(["receipt-a.json", null]);
  });

  it("flattens provider_options to provider_options.key and writes non-text values as JSON", () => {
    expect(flattenParams({ provider: "openai", model: "m", seed: 101, background: null, provider_options: { quality: "low" } })).toEqual({
      provider: "openai",
      model: "m",
      seed: "101",
      background: "null",
      "provider_options.quality": "low",
    });
    expect(paramsBesideModel(flattenParams(JOBS[0].params))).toEqual([
      ["size", "1024x1024"],
      ["seed", "101"],
      ["n", "1"],
      ["provider_options.quality", "low"],
    ]);
  });
});

describe("gallery filters", () => {
  const items = galleryItems(JOBS);

  it("offers provider and model always, then each parameter that varies, the prompt last", () => {
    const facets = galleryFacets(items);
    expect(facets.map((facet) => facet.key)).toEqual(["provider", "model", "size", "seed", "n", "provider_options.quality", "prompt"]);
    expect(facets.find((facet) => facet.key === "provider")!.values).toEqual(["openai", "gemini"]);
    expect(facets.find((facet) => facet.key === "seed")!.values).toEqual(["101", "102"]);
    // image_size has one value among the images: a filter on it would filter nothing.
    expect(facets.some((facet) => facet.key === "provider_options.image_size")).toBe(false);
  });

  it("keeps a one-value provider and model as filters (the spec names them)", () => {
    const one = galleryFacets(galleryItems([JOBS[0], JOBS[1]]));
    expect(one.slice(0, 2)).toEqual([
      { key: "provider", values: ["openai"] },
      { key: "model", values: ["gpt-image-1"] },
    ]);
  });

  it("keeps the images with every chosen value; a blank choice lets all through", () => {
    expect(filterGallery(items, {}).length).toBe(5);
    expect(filterGallery(items, { provider: "gemini" }).map((item) => item.jobId)).toEqual(["j-000003", "j-000003"]);
    expect(filterGallery(items, { provider: "openai", "provider_options.quality": "low" }).map((item) => item.jobId)).toEqual([
      "j-000001",
      "j-000005",
    ]);
    expect(filterGallery(items, { provider: "openai", seed: "102", model: "" }).map((item) => item.jobId)).toEqual(["j-000005"]);
    expect(filterGallery(items, { prompt: "p-0002" }).map((item) => item.jobId)).toEqual(["j-000005"]);
    expect(filterGallery(items, { provider: "gemini", seed: "101" })).toEqual([]);
  });

  it("matches numbers by their text, so seed 101 is not seed 1010", () => {
    const more = galleryItems([...JOBS, job(6, { provider: "openai", model: "gpt-image-1", seed: 1010, provider_options: {} })]);
    expect(filterGallery(more, { seed: "101" }).map((item) => item.jobId)).toEqual(["j-000001", "j-000002"]);
  });
});

describe("status by provider and model", () => {
  it("counts each status per provider/model in plan order, and a total", () => {
    const { rows, total } = statusByModel([
      ...JOBS,
      { params: { provider: "openai", model: "gpt-image-1" }, status: "pending" },
      { params: { provider: "openai", model: "gpt-image-1" }, status: "running" },
      { params: { provider: "gemini", model: "gemini-2.5-flash-image" }, status: "skipped" },
    ]);
    expect(rows.map((row) => `${row.provider}/${row.model}`)).toEqual([
      "openai/gpt-image-1",
      "gemini/gemini-2.5-flash-image",
      "mock/mock-image",
    ]);
    expect(rows[0].counts).toEqual({ pending: 1, running: 1, success: 3, failed: 0, skipped: 0 });
    expect(rows[0].total).toBe(5);
    expect(rows[1].counts).toEqual({ pending: 0, running: 0, success: 1, failed: 0, skipped: 1 });
    expect(rows[2].counts.failed).toBe(1);
    expect(total.total).toBe(8);
    expect(total.counts).toEqual({ pending: 1, running: 1, success: 4, failed: 1, skipped: 1 });
  });

  it("counts a status it does not know as pending instead of losing the job", () => {
    const { total } = statusByModel([{ params: { provider: "mock", model: "m" }, status: "queued" }]);
    expect(total.counts.pending).toBe(1);
    expect(total.total).toBe(1);
  });
});
