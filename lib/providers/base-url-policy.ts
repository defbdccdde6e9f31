import { BlockList, isIP } from "node:net";

/**
 * Which provider base URLs this server may call. A base URL is where a provider's key (and the
 * person's prompts) are sent, and what the server itself connects to, so:
 *
 * - only http: and https:, and no user name or password inside the URL (file:, data:, ftp: and
 *   the like would make the server read or reach things that are not an API);
 * - a loopback, private, link-local (cloud metadata, 169.254.169.254) or otherwise internal
 *   address only where private addresses are allowed: for the local user of a loopback-only
 *   server always (Ollama, LM Studio on this machine), and on a token-protected or multi-user
 *   server only with PARALLAXR_ALLOW_PRIVATE_BASE_URLS=1, because there a base URL lets whoever
 *   may save one make the server call its own network.
 *
 * The address rule reads the host as written (an IP literal, or a name that only ever means this
 * machine or a local network). Names that resolve to private addresses are caught when called:
 * see `findPrivateAddress`.
 */
export type BaseUrlVerdict =
  | { ok: true; /** The URL as it is stored and compared: parsed, without trailing slashes. */ url: string }
  | { ok: false; rule: "malformed" | "scheme" | "credentials" | "private"; message: string };

/** The environment variable that lets a token-protected server call private addresses. */
export const ALLOW_PRIVATE_BASE_URLS_VARIABLE = "PARALLAXR_ALLOW_PRIVATE_BASE_URLS";

/** Checks a base URL against the policy; `allowPrivate` comes from readAccessConfig().allowPrivateBaseUrls. */
export function checkBaseUrl(text: string, { allowPrivate }: { allowPrivate: boolean }): BaseUrlVerdict {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, rule: "malformed", message: `"${shorten(text)}" is not a URL: give one such as https://api.example.com/v1.` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, rule: "scheme", message: `A base URL must start with http:// or https://, not ${url.protocol}//.` };
  }
  if (url.username !== "" || url.password !== "") {
    return {
      ok: false,
      rule: "credentials",
      message: "A base URL may not hold a user name or password (user:pass@host): enter the key in the API key field.",
    };
  }
  if (!allowPrivate && isPrivateHostname(url.hostname)) {
    return {
      ok: false,
      rule: "private",
      message:
        `${url.host} is a loopback, private or link-local address. This server is shared (it needs access tokens), so it does not ` +
        `call its own network; set ${ALLOW_PRIVATE_BASE_URLS_VARIABLE}=1 on the server to allow it.`,
    };
  }
  return { ok: true, url: normalizeBaseUrl(url) };
}

/**
 * The form base URLs are stored and compared in: what the URL parser makes of it (lower-case
 * scheme and host, default port dropped), without trailing slashes. Two URLs that differ only in
 * those ways are one address; anything else is another.
 */
export function normalizeBaseUrl(input: string | URL): string {
  const url = typeof input === "string" ? new URL(input.trim()) : input;
  return url.href.replace(/\/+$/, "");
}

/** Whether two base URLs name the same address; null stands for "none". Unparsable ones compare as text. */
export function sameBaseUrl(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  try {
    return normalizeBaseUrl(a) === normalizeBaseUrl(b);
  } catch {
    return a.trim() === b.trim();
  }
}

/**
 * Whether a host name (as URL.hostname gives it: IPv6 in brackets) names this machine, a private
 * network, link-local (cloud metadata) or another address that is not the public internet; or is a
 * name that only resolves inside a local network.
 */
export function isPrivateHostname(hostname: string): boolean {
  const name = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  if (isIP(name) !== 0) return isPrivateAddress(name);
  if (name === "" || localNames.has(name)) return true;
  // One label (`ollama`, `gpu-box`): only a local resolver's search domain can make it an address.
  if (!name.includes(".")) return true;
  return localSuffixes.some((suffix) => name.endsWith(suffix));
}

/** Whether an IP address (v4 or v6, IPv4-mapped included) is outside the public internet. */
export function isPrivateAddress(address: string): boolean {
  const plain = address.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const family = isIP(plain);
  if (family === 0) return false;
  return privateRanges.check(plain, family === 4 ? "ipv4" : "ipv6");
}

/**
 * The first private address among a host's resolved addresses, or null. Call-time check for names
 * (a public-looking name can resolve to 10.0.0.5): the caller resolves, this decides.
 */
export function findPrivateAddress(addresses: readonly string[]): string | null {
  return addresses.find((address) => isPrivateAddress(address)) ?? null;
}

// Names that mean this machine or a local network by definition (RFC 6761, 6762, 8375) or by
// cloud convention (metadata.google.internal).
const localNames = new Set(["localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"]);
const localSuffixes = [".localhost", ".local", ".internal", ".home.arpa", ".lan", ".localdomain", ".intranet", ".corp"];

// BlockList also matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against the IPv4 ranges.
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches this machine
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT; also Alibaba Cloud's metadata (100.100.100.200)
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local: the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed on some networks)
  ["ff00::", 8], // multicast
  ["64:ff9b::", 96], // NAT64: an IPv4 address inside, which may be private
] as const) {
  privateRanges.addSubnet(network, prefix, "ipv6");
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
