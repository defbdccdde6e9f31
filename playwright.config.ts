import { defineConfig } from "@playwright/test";

const port = 3100;
// E2E_BASE_URL points the tests at a server you already run (for example `next dev`) instead of
// starting the production server below.
const externalBaseUrl = process.env.E2E_BASE_URL;

export default defineConfig({
  testDir: "e2e",
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  outputDir: "test-results/e2e-output",
  use: {
    baseURL: externalBaseUrl ?? `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's Chromium: `npx playwright install` needs the internet, which these machines lack.
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  webServer: externalBaseUrl
    ? undefined
    : {
        // Builds if the build is missing or older than the sources, then `next start` on port 3100
        // with a fresh PGlite data folder; the time allows for that build on two busy cores.
        command: "node scripts/e2e-server.mjs",
        url: `http://127.0.0.1:${port}`,
        reuseExistingServer: false,
        timeout: 600_000,
        stdout: "pipe",
        stderr: "pipe",
      },
});
