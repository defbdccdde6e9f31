import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships WASM and a data bundle it loads from its own folder; pg has optional native bits;
  // node-llama-cpp loads a prebuilt native binary per platform. All three must be required at run
  // time from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "node-llama-cpp"],
  poweredByHeader: false,
};

export default config;
