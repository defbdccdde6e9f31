import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { ALLOW_PRIVATE_BASE_URLS_VARIABLE, findPrivateAddress, isPrivateHostname } from "../base-url-policy";
import { ProviderError } from "../provider-error";
import { sendOverHttp } from "./send-over-http";

const MB = 1024 * 1024;

/**
 * The most a text model's answer may be, streamed or not, counted as it is read (after any
 * gzip is undone, so a compressed bomb counts at its real size). The longest answers models give
 * today are well under 1 MB of text (128k output tokens is about 0.5 MB); 10 MB leaves room for
 * verbose JSON framing (a streamed answer repeats its envelope per token) and big model lists
 * (OpenRouter's /models is about 1 MB).
 */
export const MAX_TEXT_RESPONSE_BYTES = 10 * MB;

/**
 * The most an image model's answer may be, for the image adapters: images arrive base64-encoded
 * inside JSON, a third larger than the files, and a batch call may return several.
 */
export const MAX_IMAGE_RESPONSE_BYTES = 100 * MB;

/**
 * How much of an error answer (non-2xx) is read. A vendor's JSON error is well under 1 kB; past
 * this it is a page (a proxy's, or whatever an address serves), of which only the status counts.
 * The rest is dropped, not refused, so the status still says what went wrong.
 */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** What the adapters' fetch is made from. */
export interface GuardedFetchOptions {
  /** The vendor as people know it, for messages. */
  label: string;
  /** The fetch to wrap (tests pass their own); globalThis.fetch when unset. */
  fetch?: typeof fetch;
  /** The cap on a successful answer; MAX_TEXT_RESPONSE_BYTES when unset. */
  maxBytes?: number;
  /**
   * False where the server may not call private addresses (token-protected, without
   * PARALLAXR_ALLOW_PRIVATE_BASE_URLS=1): each request's host is then resolved and refused when any
   * of its addresses is private. Defaults to true (the URL itself was checked where it was chosen).
   */
  allowPrivateAddresses?: boolean;
  /** Resolves a host name to its addresses; the system resolver (dns.lookup) when unset. */
  resolveHost?: (host: string) => Promise<string[]>;
}

/**
 * The fetch every adapter sends with (the AI SDK's providers take it as `fetch`): it caps the
 * answer while it is read, does not follow redirects (a base URL that was checked must not hand
 * the request, and the key in its headers, to an address that was not), and, where private
 * addresses are refused, refuses a host that resolves to one.
 */
export function createGuardedFetch(options: GuardedFetchOptions): typeof fetch {
  const maxBytes = options.maxBytes ?? MAX_TEXT_RESPONSE_BYTES;
  const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const send = options.fetch ?? globalThis.fetch;
    if (options.allowPrivateAddresses === false)
      await refusePrivateResolution(urlOf(input), options.label, options.resolveHost ?? resolveWithSystem);
    const tooLarge = (status: number) =>
      new ProviderError({
        code: "server",
        // The same request gets the same answer: a retry would only pay for it again.
        retryable: false,
        statusCode: status,
        message: `${options.label}'s answer is larger than ${formatBytes(maxBytes)}, the most a model's answer may be here; it was cut off and dropped.`,
      });
    // Without a fetch of the caller's, node:http sends it with the caps applied as it reads (and
    // fetch only what node:http does not send: a Request, a form); see send-over-http.ts.
    const direct = options.fetch ? null : sendOverHttp(input, init, { okBytes: maxBytes, errorBytes: MAX_ERROR_BODY_BYTES, tooLarge });
    const response = direct ? await direct : await send(input, { ...init, redirect: "manual" });
    if (isRedirect(response)) {
      await response.body?.cancel().catch(() => {});
      throw new ProviderError({
        code: "bad_request",
        statusCode: response.status,
        message: `${options.label} answered with a redirect (${response.status}) to another address. Redirects of a base URL are not followed: set the base URL to the address it points to.`,
      });
    }
    if (direct || !response.body || response.status === 204 || response.status === 304) return response;
    if (response.ok) {
      const declared = Number(response.headers.get("content-length"));
      if (Number.isFinite(declared) && declared > maxBytes) {
        await response.body.cancel().catch(() => {});
        throw tooLarge(response.status);
      }
    }
    const body = response.ok
      ? capStream(response.body, maxBytes, { onExceed: "error", error: () => tooLarge(response.status) })
      : capStream(response.body, MAX_ERROR_BODY_BYTES, { onExceed: "truncate" });
    const headers = new Headers(response.headers);
    // The body is no longer the bytes these described.
    headers.delete("content-length");
    headers.delete("content-encoding");
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
  return guarded as typeof fetch;
}

/**
 * The body, passed through until `limit` bytes; then either an error (a successful answer: half an
 * answer is no answer) or its end (an error page: what came first is enough). The source is
 * cancelled either way, so the connection closes and no more is received.
 */
function capStream(
  source: ReadableStream<Uint8Array>,
  limit: number,
  how: { onExceed: "error"; error: () => Error } | { onExceed: "truncate" },
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let seen = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        controller.error(error);
        return;
      }
      if (chunk.done) {
        controller.close();
        return;
      }
      seen += chunk.value.byteLength;
      if (seen <= limit) {
        controller.enqueue(chunk.value);
        return;
      }
      await reader.cancel().catch(() => {});
      if (how.onExceed === "error") {
        controller.error(how.error());
        return;
      }
      const keep = chunk.value.byteLength - (seen - limit);
      if (keep > 0) controller.enqueue(chunk.value.subarray(0, keep));
      controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/**
 * Refuses a request whose host is, or resolves to, a private address. The check and fetch's own
 * connection resolve the name separately, so a name whose answer changes in between (DNS
 * rebinding) is not caught here; pinning the address would need our own connection agent.
 */
async function refusePrivateResolution(url: URL | null, label: string, resolveHost: (host: string) => Promise<string[]>): Promise<void> {
  if (!url) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const refuse = (what: string) =>
    new ProviderError({
      code: "bad_request",
      message: `${label}'s base URL ${what}. This server is shared (it needs access tokens), so it does not call its own network; set ${ALLOW_PRIVATE_BASE_URLS_VARIABLE}=1 on the server to allow it.`,
    });
  if (isPrivateHostname(host)) throw refuse(`names ${url.host}, a loopback, private or link-local address`);
  if (isIP(host) !== 0) return;
  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch {
    // A name that does not resolve: fetch reports that itself (ENOTFOUND), as it would anyway.
    return;
  }
  const found = findPrivateAddress(addresses);
  if (found) throw refuse(`host ${host} resolves to ${found}, a loopback, private or link-local address`);
}

async function resolveWithSystem(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

function urlOf(input: string | URL | Request): URL | null {
  try {
    return new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  } catch {
    return null;
  }
}

function isRedirect(response: Response): boolean {
  // Node's fetch gives the 3xx answer itself with redirect: "manual"; a browser's would be opaque.
  return response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400 && response.status !== 304);
}

function formatBytes(bytes: number): string {
  return bytes % MB === 0 ? `${bytes / MB} MB` : `${Math.round(bytes / 1024)} kB`;
}
