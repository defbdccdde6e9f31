// Lint for the whole tree: typescript-eslint's recommended rules and React's rules of hooks.
// `npm test` runs it (with the typecheck) before the suites; `npm run lint` alone.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      ".cli-build/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      "e2e-artifacts/**",
      "coverage/**",
      "bench/results/**",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,mts,mjs}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // `_name` marks an argument kept for its position (a handler's request, a callback's index)
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // Playwright reads a fixture's needs from the first argument's pattern: `async ({}, testInfo)` asks for none
    files: ["e2e/**/*.ts"],
    rules: { "no-empty-pattern": "off" },
  },
  {
    // scripts and the CLI's entry run in plain Node
    files: ["**/*.mjs"],
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly", Buffer: "readonly", setTimeout: "readonly", fetch: "readonly" },
    },
  },
);
