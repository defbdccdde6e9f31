import { readFileSync } from "node:fs";

/**
 * The local addresses on which something listens on TCP port, as the kernel reports them in
 * /proc/net/tcp and tcp6 (what `ss -ltn` reads): "127.0.0.1", "0.0.0.0", "::", "::1".
 */
export function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const [file, decode] of [
    ["/proc/net/tcp", decodeIpv4],
    ["/proc/net/tcp6", decodeIpv6],
  ] as const) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.trim().split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [address, portHex] = local.split(":");
      if (state === "0A" && Number.parseInt(portHex, 16) === port) found.push(decode(address));
    }
  }
  return found;
}

// 0100007F is 127.0.0.1: four bytes, little-endian.
function decodeIpv4(hex: string): string {
  return [6, 4, 2, 0].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(".");
}

function decodeIpv6(hex: string): string {
  if (/^0+$/.test(hex)) return "::";
  if (hex === "00000000000000000000000001000000") return "::1";
  return hex;
}
