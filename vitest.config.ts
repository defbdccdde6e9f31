import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Database tests start PGlite instances (about 5 s and 900 MB each on first start):
    // two files at a time fits this 2-core machine.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
