// The request body limits, in one place: proxy.ts, route() and next.config.mjs read them here.
// JavaScript with no imports (its types in body-limits.d.mts), because next.config.mjs loads it
// too: a TypeScript config is compiled by Next.js's native compiler at every start of the server,
// which then stays loaded (bench/README.md, "The server's start without Next.js's compiler").

const MB = 1024 * 1024;

/**
 * 8 MB for every route by default: a prompt may be 1,000,000 characters, which JSON carries in
 * up to 3 MB of UTF-8 (6 MB if every character were an escaped control character), and a run
 * carries a prompt and a grader. Set PARALLAXR_MAX_BODY_MB to change it.
 */
export const DEFAULT_BODY_MB = 8;

/**
 * 128 MB for uploads (POST /api/v1/datasets, POST /api/v1/runs with inline rows, POST /api/v1/experiments with its files): they take up to
 * 100,000 rows, and JSON repeats the column names on every row, so a 50 MB CSV is 55 to 70 MB of
 * JSON (the page's upload of a 50 MB CSV measured 67 MB). Set PARALLAXR_MAX_UPLOAD_MB to change it.
 */
export const DEFAULT_UPLOAD_MB = 128;

/** The routes that take uploads, by method and exact path. */
const uploadRoutes = new Set(["POST /api/v1/datasets", "POST /api/v1/runs", "POST /api/v1/experiments"]);

/** Reads PARALLAXR_MAX_BODY_MB and PARALLAXR_MAX_UPLOAD_MB (megabytes of 1,048,576 bytes). */
export function readBodyLimits(env = process.env) {
  return {
    defaultBytes: megabytes(env.PARALLAXR_MAX_BODY_MB, DEFAULT_BODY_MB, "PARALLAXR_MAX_BODY_MB"),
    uploadBytes: megabytes(env.PARALLAXR_MAX_UPLOAD_MB, DEFAULT_UPLOAD_MB, "PARALLAXR_MAX_UPLOAD_MB"),
  };
}

/** The body limit of a request to this method and path. */
export function bodyLimitFor({ method, pathname }, limits) {
  const route = `${method.toUpperCase()} ${pathname.replace(/\/+$/, "") || "/"}`;
  return uploadRoutes.has(route)
    ? { bytes: limits.uploadBytes, route, setting: "PARALLAXR_MAX_UPLOAD_MB" }
    : { bytes: limits.defaultBytes, route, setting: "PARALLAXR_MAX_BODY_MB" };
}

/**
 * How much of a body Next.js may buffer while proxy.ts runs (experimental.proxyClientMaxBodySize).
 * Next.js cuts a longer body there silently (its default is 10 MB, which cut a 50 MB upload to
 * 10 MB), so this is the largest limit plus 1 MB: a body over any limit still arrives longer than
 * that limit (Node reads a socket in chunks of 64 KB at most) and is refused, not taken cut short.
 */
export function proxyBufferBytes(limits) {
  return Math.max(limits.defaultBytes, limits.uploadBytes) + MB;
}

/** A byte count as people read it: "8 MB (8,388,608 bytes)". */
export function describeBytes(bytes) {
  const size = bytes % MB === 0 ? `${bytes / MB} MB` : bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
  return `${size} (${bytes.toLocaleString("en-US")} bytes)`;
}

function megabytes(value, fallback, name) {
  if (value === undefined || value.trim() === "") return fallback * MB;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > 4096) {
    throw new Error(`${name} must be a number of megabytes between 0 and 4096, such as ${fallback}; it is "${value}".`);
  }
  return Math.round(parsed * MB);
}
