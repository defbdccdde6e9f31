import { describe, expect, it } from "vitest";
import { readAccessConfig, sessionCookieName } from "@/lib/auth/access-config";
import { contentSecurityPolicy, securityHeaders } from "@/lib/server/security-headers.mjs";
import { signInRedirect } from "@/lib/server/sign-in-redirect";

const tokens = readAccessConfig({ PARALLAXR_REQUIRE_TOKEN: "1" });
const page = (pathname: string, search = "", cookies: string[] = []) => ({
  pathname,
  search,
  hasCookie: (name: string) => cookies.includes(name),
});

describe("signInRedirect", () => {
  it("sends a page without the session cookie to /sign-in with where it was going", () => {
    expect(signInRedirect(page("/"), tokens)).toBe("/sign-in?next=%2F");
    expect(signInRedirect(page("/settings/keys", "?tab=1"), tokens)).toBe("/sign-in?next=%2Fsettings%2Fkeys%3Ftab%3D1");
    expect(signInRedirect(page("/sign-inx"), tokens)).toBe("/sign-in?next=%2Fsign-inx");
  });

  it("lets through the cookie's holder, the API, sign-in, assets, and everyone on a loopback-only server", () => {
    expect(signInRedirect(page("/", "", [sessionCookieName]), tokens)).toBeNull();
    for (const path of ["/api/v1/prompts", "/sign-in", "/sign-in/", "/_next/static/chunks/a.js", "/icon.svg", "/favicon.ico"]) {
      expect(signInRedirect(page(path), tokens), path).toBeNull();
    }
    expect(signInRedirect(page("/"), readAccessConfig({}))).toBeNull();
  });
});

describe("security headers", () => {
  it("forbid framing, plugins, other bases, form targets and connections", () => {
    const csp = contentSecurityPolicy();
    for (const directive of [
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "connect-src 'self'",
      "default-src 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain("unsafe-eval");
    expect(contentSecurityPolicy({ dev: true })).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy({ supabaseUrl: "https://abc.supabase.co" })).toContain(
      "connect-src 'self' https://abc.supabase.co wss://abc.supabase.co",
    );
    const headers = Object.fromEntries(securityHeaders().map(({ key, value }) => [key, value]));
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("no-referrer");
    expect(headers["Permissions-Policy"]).toContain("camera=()");
  });
});
