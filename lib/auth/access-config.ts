import type { Environment } from "@/lib/environment";

/** The cookie the sign-in page sets: the access token itself, HttpOnly and SameSite=Strict. */
export const sessionCookieName = "parallaxr_token";

/** How this server may be reached, and who may call it: read once from the environment. */
export interface AccessConfig {
  /** The address the server listens on: HOST, else 127.0.0.1 (loopback only). */
  bindHost: string;
  /**
   * Whether every request needs an access token: when the server listens beyond loopback, or
   * PARALLAXR_REQUIRE_TOKEN=1. A loopback-only server serves its one local user without one.
   */
  tokensRequired: boolean;
  /** PARALLAXR_PUBLIC_URL: the address people use to reach a server behind a proxy or on a LAN. */
  publicUrl: URL | null;
  /** Host names (with or without a port) allowed beside loopback and the public URL's host. */
  allowedHosts: string[];
  /**
   * Whether a provider base URL may name a loopback or private address (Ollama, LM Studio): always
   * for the local user, and in token-protected deployments only with PARALLAXR_ALLOW_PRIVATE_BASE_URLS=1.
   */
  allowPrivateBaseUrls: boolean;
}

/** Reads the access settings (HOST, PARALLAXR_REQUIRE_TOKEN, PARALLAXR_PUBLIC_URL, ...) from env. */
export function readAccessConfig(env: Environment = process.env): AccessConfig {
  const bindHost = env.HOST?.trim() || "127.0.0.1";
  const tokensRequired = !isLoopbackHostname(bindHost) || env.PARALLAXR_REQUIRE_TOKEN === "1";
  let publicUrl: URL | null = null;
  if (env.PARALLAXR_PUBLIC_URL) {
    try {
      publicUrl = new URL(env.PARALLAXR_PUBLIC_URL);
    } catch {
      throw new Error(
        `PARALLAXR_PUBLIC_URL is not a URL: "${env.PARALLAXR_PUBLIC_URL}". Give the address people open, such as https://parallaxr.example.com.`,
      );
    }
  }
  const allowedHosts = (env.PARALLAXR_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
  // A server bound to one named address is reached by that address.
  if (!isWildcardAddress(bindHost) && !isLoopbackHostname(bindHost)) allowedHosts.push(bindHost.toLowerCase());
  const allowPrivateBaseUrls = !tokensRequired || env.PARALLAXR_ALLOW_PRIVATE_BASE_URLS === "1";
  return { bindHost, tokensRequired, publicUrl, allowedHosts, allowPrivateBaseUrls };
}

/** Whether a host name (no port; IPv6 with or without brackets) names this machine's loopback. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || name.endsWith(".localhost") || name === "::1" || /^127(\.\d{1,3}){3}$/.test(name);
}

/** Whether a bind address means every interface (0.0.0.0, ::). */
export function isWildcardAddress(host: string): boolean {
  const name = host.replace(/^\[(.*)\]$/, "$1");
  return name === "0.0.0.0" || name === "::" || name === "0:0:0:0:0:0:0:0";
}

/**
 * The address this machine's own tools use to reach a server bound to bindHost on port: loopback
 * when it listens there or everywhere, else the named address.
 */
export function localServerUrl(bindHost: string, port: number | string): string {
  const host =
    isWildcardAddress(bindHost) || isLoopbackHostname(bindHost)
      ? "127.0.0.1"
      : bindHost.includes(":") && !bindHost.startsWith("[")
        ? `[${bindHost}]`
        : bindHost;
  return `http://${host}:${port}`;
}

/**
 * Whether a Host header names this server: a loopback name (any port), the bind address when it
 * is a specific one, the public URL's host name, or an allowed host (an entry with a port matches
 * that port only). Anything else is a name someone else controls (DNS rebinding).
 */
export function isAllowedHost(hostHeader: string | null, config: AccessConfig): boolean {
  const parsed = parseHostHeader(hostHeader);
  if (!parsed) return false;
  const { hostname, port } = parsed;
  if (isLoopbackHostname(hostname)) return true;
  const bind = config.bindHost.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (bind !== "0.0.0.0" && bind !== "::" && bind === hostname) return true;
  if (config.publicUrl && config.publicUrl.hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1") === hostname) return true;
  return config.allowedHosts.some((entry) => {
    const allowed = parseHostHeader(entry);
    return allowed !== null && allowed.hostname === hostname && (allowed.port === null || allowed.port === port);
  });
}

/** A Host header's name (lower case, IPv6 without brackets) and port, or null when malformed. */
export function parseHostHeader(hostHeader: string | null): { hostname: string; port: string | null } | null {
  const value = hostHeader?.trim().toLowerCase();
  if (!value) return null;
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]\s/@]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return null;
  return { hostname: match[1].replace(/^\[(.*)\]$/, "$1"), port: match[2] ?? null };
}
