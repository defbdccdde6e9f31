#!/usr/bin/env node
// `npm start` and `npm run dev`: Next.js on 127.0.0.1 (this machine only) unless HOST says
// otherwise. `start` serves the production build, built first when it is missing or was built
// from other sources (a development server compiled each page on its first visit: 32 s before the
// first page of a fresh clone was usable); `dev` is for people working on the code. Next's own
// default is every interface, which makes everyone on the network the local user; listening
// beyond loopback is an explicit choice, and then every request needs a token.
import { createRequire } from "node:module";
import path from "node:path";
import { ensureBuild } from "./build-check.mjs";

const mode = process.argv[2];
if (mode !== "dev" && mode !== "start") {
  console.error("usage: node scripts/serve.mjs dev|start   (HOST and PORT from the environment)");
  process.exit(2);
}
const root = path.join(import.meta.dirname, "..");
if (mode === "start") ensureBuild({ root });

const host = process.env.HOST?.trim() || "127.0.0.1";
const port = process.env.PORT?.trim() || "3000";
const loopback = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i.test(host);
const tokensRequired = !loopback || process.env.PARALLAXR_REQUIRE_TOKEN === "1";

if (tokensRequired) {
  const wildcard = host === "0.0.0.0" || host === "::" || host === "[::]";
  const where = wildcard ? "every network interface" : host;
  console.error(
    [
      "",
      `Parallaxr listens on ${where}, port ${port}: every request needs an access token.`,
      "  Create one on this machine:   npx parallaxr token create --name my-laptop",
      `  Then sign in in the browser:  http://<this machine>:${port}/sign-in`,
      "  or send it from scripts:      Authorization: Bearer <token>",
      wildcard
        ? "  Name the addresses people use: PARALLAXR_ALLOWED_HOSTS=myhost.lan,192.168.1.20 (others get 421), or PARALLAXR_PUBLIC_URL."
        : "  Other names for this server: PARALLAXR_ALLOWED_HOSTS=... or PARALLAXR_PUBLIC_URL (others get 421).",
      "",
    ].join("\n"),
  );
}

// Next runs in this process rather than in a child of it: a second Node process only to wait
// for the first held ~50 MB more of memory for as long as the server ran.
process.env.HOST = host;
process.env.PORT = port;
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.chdir(root);
const next = path.join(root, "node_modules", "next", "dist", "bin", "next");
process.argv = [process.execPath, next, mode, "-H", host, "-p", port];
createRequire(import.meta.url)(next);
