/**
 * The gallery's pure parts: a run's images with the parameters of the job that made them, the
 * filters the parameters offer (provider, model, and every matrix parameter that varies), and the
 * status table's counts by provider and model. Parameters are compared by their text, so a seed of
 * 101 and a size of "4:5" are both one choice in a list.
 */

/** The job fields the gallery and the status table read (a run.json job has them all). */
export interface GalleryJob {
  job_id: string;
  prompt_id: string;
  prompt: string;
  /** provider, model, the matrix's other keys, and provider_options (an object). */
  params: Record<string, unknown>;
  status: string;
  artifacts: { image_paths: string[]; receipt_paths: string[] };
}

/** One image of the run. */
export interface GalleryItem {
  /** The image's file name in the run folder (GET /api/v1/batches/{id}/images/{file}). */
  file: string;
  /** Its receipt's file name, null when the job recorded none for it. */
  receipt: string | null;
  jobId: string;
  promptId: string;
  prompt: string;
  /** Every parameter as text, provider_options flattened to `provider_options.key`. */
  params: Record<string, string>;
}

/** A parameter's value as text: strings as they are, anything else as JSON (null as "null"). */
export function paramText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value ?? null);
}

/** A job's parameters flattened: provider, model, the others in their order, then provider_options.*. */
export function flattenParams(params: GalleryJob["params"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === "provider_options") continue;
    out[key] = paramText(value);
  }
  const options = params.provider_options;
  if (options && typeof options === "object" && !Array.isArray(options)) {
    for (const [key, value] of Object.entries(options)) out[`provider_options.${key}`] = paramText(value);
  }
  return out;
}

/** The images of the jobs that made any, in job order; a job of n images gives n items. */
export function galleryItems(jobs: readonly GalleryJob[]): GalleryItem[] {
  const items: GalleryItem[] = [];
  for (const job of jobs) {
    const params = flattenParams(job.params);
    job.artifacts.image_paths.forEach((file, index) => {
      items.push({
        file,
        receipt: job.artifacts.receipt_paths[index] ?? null,
        jobId: job.job_id,
        promptId: job.prompt_id,
        prompt: job.prompt,
        params,
      });
    });
  }
  return items;
}

/** One filter: a parameter and the values the images have, in the order first seen. */
export interface Facet {
  key: string;
  values: string[];
}

/**
 * The filters: provider and model always (the spec's "filter by provider, model"), then each other
 * parameter with two or more values among the images (one value filters nothing), the prompt last.
 */
export function galleryFacets(items: readonly GalleryItem[]): Facet[] {
  const seen = new Map<string, string[]>();
  const note = (key: string, value: string) => {
    const values = seen.get(key) ?? [];
    if (!values.includes(value)) values.push(value);
    seen.set(key, values);
  };
  for (const item of items) {
    for (const [key, value] of Object.entries(item.params)) note(key, value);
    note("prompt", item.promptId);
  }
  const facets: Facet[] = [];
  for (const key of ["provider", "model"]) facets.push({ key, values: seen.get(key) ?? [] });
  for (const [key, values] of seen) {
    if (key === "provider" || key === "model" || key === "prompt") continue;
    if (values.length > 1) facets.push({ key, values });
  }
  const prompts = seen.get("prompt") ?? [];
  if (prompts.length > 1) facets.push({ key: "prompt", values: prompts });
  return facets;
}

/** The chosen value of each filter; a filter left out (or "") lets every image through. */
export type GallerySelection = Record<string, string>;

/** The images that have every chosen value (the prompt filter matches the prompt id). */
export function filterGallery(items: readonly GalleryItem[], selection: GallerySelection): GalleryItem[] {
  const chosen = Object.entries(selection).filter(([, value]) => value !== "");
  if (chosen.length === 0) return [...items];
  return items.filter((item) => chosen.every(([key, value]) => (key === "prompt" ? item.promptId : item.params[key]) === value));
}

/** Parameters worth showing under an image: all but provider and model, which head the card. */
export function paramsBesideModel(params: Record<string, string>): Array<[string, string]> {
  return Object.entries(params).filter(([key]) => key !== "provider" && key !== "model");
}

/** The job statuses the status table counts, in the order a job passes through them. */
export const JOB_STATUS_ORDER = ["pending", "running", "success", "failed", "skipped"] as const;
export type CountedStatus = (typeof JOB_STATUS_ORDER)[number];

export interface StatusRow {
  provider: string;
  model: string;
  counts: Record<CountedStatus, number>;
  total: number;
}

const emptyCounts = (): Record<CountedStatus, number> => ({ pending: 0, running: 0, success: 0, failed: 0, skipped: 0 });

/** Jobs counted by status for each provider and model, in the order the plan first reaches them, and a total row. */
export function statusByModel(jobs: readonly Pick<GalleryJob, "params" | "status">[]): { rows: StatusRow[]; total: StatusRow } {
  const rows = new Map<string, StatusRow>();
  const total: StatusRow = { provider: "", model: "", counts: emptyCounts(), total: 0 };
  for (const job of jobs) {
    const provider = paramText(job.params.provider);
    const model = paramText(job.params.model);
    const key = `${provider}\u0000${model}`;
    const row = rows.get(key) ?? { provider, model, counts: emptyCounts(), total: 0 };
    // An unknown status is not dropped silently: it counts as pending, which it is until the run says more.
    const status = (JOB_STATUS_ORDER as readonly string[]).includes(job.status) ? (job.status as CountedStatus) : "pending";
    row.counts[status]++;
    row.total++;
    total.counts[status]++;
    total.total++;
    rows.set(key, row);
  }
  return { rows: [...rows.values()], total };
}
