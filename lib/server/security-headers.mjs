// The security headers of every answer, pages and API alike. next.config.mjs sends them on every
// path and proxy.ts on the answers it makes itself. JavaScript with no imports (its types in
// security-headers.d.mts), because next.config.mjs loads it too (see body-limits.mjs).

/**
 * The Content-Security-Policy. Scripts are allowed inline ('unsafe-inline') because a nonce is
 * impractical here: the /settings pages are prerendered at build time, when no request exists to
 * give a nonce to, and Next.js's inline scripts (the RSC payload, self.__next_f.push) differ per
 * build, so hashes would change with every build. A nonce would make every page render per request
 * (Next.js 16's CSP guide). What an injected script could do is still boxed in: connect-src 'self'
 * (no fetch to other hosts), form-action 'self', base-uri 'self', object-src 'none', and no frames.
 * Model output is rendered as text, never as HTML. Styles are inline too: React style attributes
 * and the editor's injected <style> tags. Development adds 'unsafe-eval' (React's dev tooling).
 */
export function contentSecurityPolicy({ dev = false, supabaseUrl } = {}) {
  const connect = ["'self'"];
  if (supabaseUrl) {
    try {
      const url = new URL(supabaseUrl);
      connect.push(url.origin, `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`);
    } catch {
      // not a URL: the Supabase client reports it itself
    }
  }
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect.join(" ")}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Every answer's security headers: the CSP, no framing (X-Frame-Options for browsers without
 * frame-ancestors), no MIME sniffing, no Referer to other sites, no powerful browser features,
 * and other origins may neither open a window handle on the app nor embed its answers.
 */
export function securityHeaders(options = {}) {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(options) },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "no-referrer" },
    {
      key: "Permissions-Policy",
      value:
        "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), hid=(), display-capture=(), accelerometer=(), gyroscope=(), magnetometer=()",
    },
    { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
    { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
  ];
}

/** The security headers for this process's environment (NODE_ENV, NEXT_PUBLIC_SUPABASE_URL). */
export function securityHeadersFromEnv(env = process.env) {
  return securityHeaders({ dev: env.NODE_ENV === "development", supabaseUrl: env.NEXT_PUBLIC_SUPABASE_URL || undefined });
}
