// JavaScript, not TypeScript: Next.js compiles a next.config.ts with its native compiler at every
// start of the server, and that compiler (22 MB of code, and its threads) then stays loaded in a
// server that never compiles anything else (bench/README.md, "The server's start without Next.js's
// compiler"). What it imports is JavaScript too, with its types beside it (.d.mts).
import { proxyBufferBytes, readBodyLimits } from "./lib/server/body-limits.mjs";
import { securityHeadersFromEnv } from "./lib/server/security-headers.mjs";
import { sourceHash } from "./scripts/build-check.mjs";

/** @type {import("next").NextConfig} */
const config = {
  // PGlite ships WASM and a data bundle it loads from its own folder; pg has optional native bits;
  // node-llama-cpp loads a prebuilt native binary per platform. All three must be required at run
  // time from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "node-llama-cpp"],
  poweredByHeader: false,
  // The build's id is the hash of its sources, so `npm start` can tell a current build from a stale
  // one (scripts/build-check.mjs) whoever built it.
  generateBuildId: () => sourceHash({ root: process.cwd() }),
  experimental: {
    // Next.js copies a request body for proxy.ts and silently cuts the route's copy at this size
    // (10 MB by default, which cut a 50 MB dataset upload short): the largest body limit plus 1 MB.
    proxyClientMaxBodySize: proxyBufferBytes(readBodyLimits()),
  },
  // Every answer, static files included; proxy.ts sets the same on the answers it makes itself.
  async headers() {
    return [{ source: "/:path*", headers: securityHeadersFromEnv() }];
  },
};

export default config;
