// A composition root, beside context.ts: it wires providers to the database's stored keys. The
// worker (cli/worker.ts) imports it too, so it stays free of "server-only" (tests/unit/boundaries.test.ts).
import type { Environment } from "@/lib/environment";
import { appendFileSync, existsSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "@/lib/project-root";
import type { Database } from "@/lib/db/database";
import { createCredentialSource } from "@/lib/engine/credential-source";
import { createLlamaCppProvider } from "@/lib/providers/llama-cpp-provider";
import { imageVendorSpecs } from "@/lib/providers/image/vendor-specs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createProviderRegistry, type CredentialSource, type ProviderRegistry } from "@/lib/providers/registry";

/**
 * The providers this server offers: the mock, and every vendor with credentials from the user's
 * stored keys or the environment. MOCK_CALL_LOG names a file that gets a line for every mock call
 * (pid, model and prompt), so runs across processes can be audited.
 */
// The AI SDK prints each call warning to the console; ours are on the cell, where they belong.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

export function createDefaultProviderRegistry({
  db,
  secretKey,
  env = process.env,
  wrapCredentials = (stored) => stored,
}: {
  db: Database;
  secretKey: Buffer;
  env?: Environment;
  /** Puts other credentials before the stored ones (`parallaxr run` prefers the keys of the working directory's .env). */
  wrapCredentials?: (stored: CredentialSource) => CredentialSource;
}): ProviderRegistry {
  const callLog = env.MOCK_CALL_LOG;
  const mock = createMockProvider({
    onCall: callLog ? (call) => appendFileSync(callLog, `${JSON.stringify({ pid: process.pid, ...call })}\n`) : undefined,
  });
  // Local GGUF models: every .gguf file in PARALLAXR_MODELS_DIR (default ./models, when present).
  const modelsDir = env.PARALLAXR_MODELS_DIR || path.join(projectRoot(env), "models");
  const local = existsSync(/*turbopackIgnore: true*/ modelsDir)
    ? [createLlamaCppProvider({ modelsDir, maxThreads: env.PARALLAXR_LLAMA_THREADS ? Number(env.PARALLAXR_LLAMA_THREADS) : undefined })]
    : [];
  return createProviderRegistry([mock, ...local], {
    factories: providerFactories,
    credentials: wrapCredentials(createCredentialSource({ db, secretKey, env })),
    // FLUX has only image models: its key is saved in Settings -> Keys like the others.
    keyOnly: [imageVendorSpecs.flux],
  });
}
