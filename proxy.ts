// Next.js 16's proxy (formerly middleware): runs in Node.js before every page and API route, so
// the request gate covers every route, present and future, in this one place. It refuses a
// foreign Host (421), a cross-site state change (403), a body that is not JSON (415) or over its
// route's limit (413), sends a page request without a session to /sign-in when the server needs
// tokens, and puts the security headers on its own answers (next.config.mjs puts them on the rest).
import { NextResponse, type NextRequest } from "next/server";
import { readAccessConfig } from "@/lib/auth/access-config";
import { bodyLimitFor, readBodyLimits } from "@/lib/server/body-limits.mjs";
import { errorResponse } from "@/lib/server/http-errors";
import { tooLargeError } from "@/lib/server/read-json-body";
import { guardRequest, hasBody } from "@/lib/server/request-guard";
import { securityHeadersFromEnv } from "@/lib/server/security-headers.mjs";
import { signInRedirect } from "@/lib/server/sign-in-redirect";

/** The gate of every request but Next.js's static assets and the icons. */
export async function proxy(request: NextRequest): Promise<Response> {
  const access = readAccessConfig();
  const limits = readBodyLimits();
  const guarded = {
    method: request.method,
    pathname: request.nextUrl.pathname,
    protocol: request.nextUrl.protocol,
    headers: request.headers,
  };

  const refused = guardRequest(guarded, { access, limits });
  if (refused) return withSecurityHeaders(errorResponse(refused));

  if (request.body && hasBody(request.headers)) {
    // Next.js holds the route's copy of the body until the client has sent all of it, whatever
    // this function answers; reading this copy as it comes keeps only one copy in memory and
    // answers 413 for a chunked body (no Content-Length) over the limit without running the route.
    const limit = bodyLimitFor(guarded, limits);
    if ((await countBytes(request.body, limit.bytes)) > limit.bytes) return withSecurityHeaders(errorResponse(tooLargeError(limit)));
  }

  const redirect = signInRedirect(
    { pathname: request.nextUrl.pathname, search: request.nextUrl.search, hasCookie: (name) => request.cookies.has(name) },
    access,
  );
  if (redirect) return withSecurityHeaders(NextResponse.redirect(new URL(redirect, request.url), 307));

  return withSecurityHeaders(NextResponse.next());
}

export const config = {
  // Next.js's build output and the icons are the same files for everyone; every other path,
  // pages, API and whatever is added later, passes the gate.
  matcher: ["/((?!_next/static/|_next/image|favicon\\.ico$|icon\\.svg$).*)"],
};

function withSecurityHeaders(response: Response): Response {
  for (const { key, value } of securityHeadersFromEnv()) response.headers.set(key, value);
  return response;
}

/** Reads a body to its end or until more than limit bytes; answers how many bytes it read. */
async function countBytes(body: ReadableStream<Uint8Array>, limit: number): Promise<number> {
  const reader = body.getReader();
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return total;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return total;
    }
  }
}
