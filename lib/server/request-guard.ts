// The request gate: what every request must be before any page or route sees it. proxy.ts runs
// it on every page and API request; the checks are pure so unit tests can call them directly.
import { isAllowedHost, type AccessConfig } from "@/lib/auth/access-config";
import { bodyLimitFor, type BodyLimits } from "./body-limits.mjs";
import { HttpError } from "./http-errors";
import { tooLargeError } from "./read-json-body";

/** The parts of a request the gate reads. */
export interface GuardedRequest {
  method: string;
  /** The path without the query. */
  pathname: string;
  /** "http:" or "https:", as the server saw the request (X-Forwarded-Proto behind a proxy). */
  protocol: string;
  headers: Headers;
}

/** What the gate needs to know about this server. */
export interface GuardConfig {
  access: AccessConfig;
  limits: BodyLimits;
}

const stateChanging = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Whether a method changes state, so the request must come from this server's own pages. */
export function isStateChanging(method: string): boolean {
  return stateChanging.has(method.toUpperCase());
}

/**
 * Checks a request in order: Host (421), then for state changes Origin and Sec-Fetch-Site (403),
 * then a body's Content-Type (415) and declared length (413). Answers the first error, or null.
 */
export function guardRequest(request: GuardedRequest, config: GuardConfig): HttpError | null {
  return (
    checkHost(request, config.access) ??
    (isStateChanging(request.method) ? checkCrossSite(request, config.access) : null) ??
    checkContentType(request) ??
    checkDeclaredLength(request, config.limits)
  );
}

/** 421 unless the Host header names this server: a page on a rebound DNS name must not reach it. */
export function checkHost(request: GuardedRequest, access: AccessConfig): HttpError | null {
  const host = request.headers.get("host");
  if (isAllowedHost(host, access)) return null;
  const shown = host ? `"${host}"` : "(no Host header)";
  const example = host ? `${request.protocol}//${host}` : "https://parallaxr.example.com";
  return new HttpError(
    "misdirected_request",
    `This server does not answer to the host name ${shown}: only to loopback names, PARALLAXR_PUBLIC_URL and PARALLAXR_ALLOWED_HOSTS, so that another site cannot reach it through its own DNS name. If people reach it at this name, set PARALLAXR_PUBLIC_URL=${example} or add ${host ? `"${host}"` : "the name"} to PARALLAXR_ALLOWED_HOSTS (comma-separated) on the server, and restart it.`,
  );
}

/**
 * 403 for a state change that a browser says came from another origin: Origin must be this
 * server's own (scheme://Host, or PARALLAXR_PUBLIC_URL's origin) and Sec-Fetch-Site same-origin
 * or none. A request without these headers (curl, the CLI, scripts) is not a browser's, and passes.
 */
export function checkCrossSite(request: GuardedRequest, access: AccessConfig): HttpError | null {
  const method = request.method.toUpperCase();
  const fetchSite = request.headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") {
    return new HttpError(
      "forbidden",
      `Cross-site request refused: the browser says this ${method} came from another site (Sec-Fetch-Site: ${fetchSite}). Use Parallaxr's own pages, or call the API from a script (curl, the CLI) without browser headers.`,
    );
  }
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  const own = ownOrigins(request, access);
  if (own.includes(normalizeOrigin(origin) ?? "")) return null;
  return new HttpError(
    "forbidden",
    `Cross-site request refused: this ${method} came from a page at ${origin}, not from this server (${own.join(" or ") || "unknown"}). Use Parallaxr's own pages; behind a proxy, set PARALLAXR_PUBLIC_URL to the address people open.`,
  );
}

/** 415 for a body that is not JSON: forms and text/plain are what other sites can send. */
export function checkContentType(request: GuardedRequest): HttpError | null {
  if (!hasBody(request.headers)) return null;
  const contentType = request.headers.get("content-type");
  if (isJsonContentType(contentType)) return null;
  return new HttpError(
    "unsupported_media_type",
    `Send the request body as JSON with Content-Type: application/json (it came as ${contentType ? `"${contentType}"` : "no Content-Type"}). No route takes forms or files: a file travels as text inside the JSON.`,
  );
}

/** 413 for a body whose Content-Length is over its route's limit, before any of it is read. */
export function checkDeclaredLength(request: GuardedRequest, limits: BodyLimits): HttpError | null {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  const limit = bodyLimitFor(request, limits);
  return Number.isFinite(declared) && declared > limit.bytes ? tooLargeError(limit) : null;
}

/** Whether a request carries a body: a Content-Length over 0, or a chunked one. */
export function hasBody(headers: Headers): boolean {
  if (headers.has("transfer-encoding")) return true;
  const length = Number(headers.get("content-length") ?? 0);
  return !Number.isFinite(length) || length > 0;
}

/** application/json, with at most a UTF-8 charset parameter (case and spaces aside). */
export function isJsonContentType(contentType: string | null): boolean {
  if (!contentType) return false;
  const [type, ...parameters] = contentType.split(";").map((part) => part.trim().toLowerCase());
  if (type !== "application/json") return false;
  return parameters.every((parameter) => parameter === "" || /^charset="?utf-?8"?$/.test(parameter));
}

function ownOrigins(request: GuardedRequest, access: AccessConfig): string[] {
  const origins: string[] = [];
  const host = request.headers.get("host");
  const fromHost = host ? normalizeOrigin(`${request.protocol}//${host}`) : null;
  if (fromHost) origins.push(fromHost);
  if (access.publicUrl) origins.push(access.publicUrl.origin);
  return origins;
}

function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}
