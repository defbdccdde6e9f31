/**
 * File names of an image batch run's outputs (spec: image-batch-runs.md, "Filename Collision
 * Prevention"): `{provider}-{yyyymmddThhmmssZ}-{job_id}-{index:02}.{ext}`, the receipt beside it
 * as `receipt-` + the same name with `.json`. The job id keeps concurrent jobs that finish in the
 * same second apart; `uniqueFileName` settles any collision left by adding `-2`, `-3`, ...
 */

const EXTENSIONS: Record<string, string> = { jpeg: "jpg", jpg: "jpg", png: "png", webp: "webp" };

function utcStamp(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}` +
    `T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}Z`
  );
}

export interface OutputNameParts {
  provider: string;
  at: Date;
  jobId: string;
  index: number;
  format: string;
}

export function imageFileName(parts: OutputNameParts): string {
  const ext = EXTENSIONS[parts.format.toLowerCase()];
  if (!ext) throw new Error(`unsupported image format "${parts.format}"`);
  if (!/^[a-z0-9][a-z0-9_.-]*$/i.test(parts.provider)) {
    throw new Error(`provider "${parts.provider}" cannot be part of a file name`);
  }
  if (!/^j-\d{6,}$/.test(parts.jobId)) throw new Error(`job id "${parts.jobId}" is not j-000001...`);
  if (!Number.isInteger(parts.index) || parts.index < 0 || parts.index > 99) {
    throw new Error(`image index ${parts.index} is outside 0-99`);
  }
  if (Number.isNaN(parts.at.getTime())) throw new Error("invalid timestamp");
  const index = String(parts.index).padStart(2, "0");
  return `${parts.provider}-${utcStamp(parts.at)}-${parts.jobId}-${index}.${ext}`;
}

export function receiptFileName(imageName: string): string {
  const dot = imageName.lastIndexOf(".");
  return `receipt-${dot > 0 ? imageName.slice(0, dot) : imageName}.json`;
}

/** The name itself if free, else the first of name-2.ext, name-3.ext, ... not in `taken`. */
export function uniqueFileName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const dot = name.lastIndexOf(".");
  const base = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : "";
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}
