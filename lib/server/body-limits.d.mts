// The types of body-limits.mjs (see there).

/** 8 MB for every route by default (PARALLAXR_MAX_BODY_MB). */
export const DEFAULT_BODY_MB: number;
/** 128 MB for uploads by default (PARALLAXR_MAX_UPLOAD_MB). */
export const DEFAULT_UPLOAD_MB: number;

/** The body limits of this server, in bytes. */
export interface BodyLimits {
  defaultBytes: number;
  uploadBytes: number;
}

/** The limit of one route, and how to name the route and the setting in a message. */
export interface BodyLimit {
  bytes: number;
  route: string;
  setting: "PARALLAXR_MAX_BODY_MB" | "PARALLAXR_MAX_UPLOAD_MB";
}

/** Reads PARALLAXR_MAX_BODY_MB and PARALLAXR_MAX_UPLOAD_MB (megabytes of 1,048,576 bytes). */
export function readBodyLimits(env?: Readonly<Record<string, string | undefined>>): BodyLimits;
/** The body limit of a request to this method and path. */
export function bodyLimitFor(request: { method: string; pathname: string }, limits: BodyLimits): BodyLimit;
/** How much of a body Next.js may buffer while proxy.ts runs: the largest limit plus 1 MB. */
export function proxyBufferBytes(limits: BodyLimits): number;
/** A byte count as people read it: "8 MB (8,388,608 bytes)". */
export function describeBytes(bytes: number): string;
