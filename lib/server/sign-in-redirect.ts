import { sessionCookieName, type AccessConfig } from "@/lib/auth/access-config";

// Paths a person without a session may open: the sign-in page, the API (it answers 401 itself),
// Next.js's assets and the icons. Everything else is a page.
const openPrefixes = ["/api/", "/sign-in/", "/_next/"];
const openPaths = new Set(["/api", "/sign-in", "/icon.svg", "/favicon.ico"]);

/**
 * Where to send a page request on a server that needs tokens when it has no session cookie:
 * `/sign-in?next=<path and query>`, or null when it may pass. Only the cookie's presence is
 * checked here; the API checks the token in it on every call.
 */
export function signInRedirect(
  request: { pathname: string; search: string; hasCookie: (name: string) => boolean },
  access: AccessConfig,
): string | null {
  if (!access.tokensRequired) return null;
  const { pathname } = request;
  if (openPaths.has(pathname) || openPrefixes.some((prefix) => pathname.startsWith(prefix))) return null;
  if (request.hasCookie(sessionCookieName)) return null;
  return `/sign-in?next=${encodeURIComponent(pathname + request.search)}`;
}
