import { appendFileSync } from "node:fs";
import type { Database } from "@/lib/db/database";
import type { Environment } from "@/lib/environment";
import { createMockImageProvider, mockImageBehaviourFromEnv } from "@/lib/providers/image/mock";
import { createImageProviderRegistry, type ImageProviderRegistry } from "@/lib/providers/image/registry";
import type { ImageModelProvider } from "@/lib/providers/image/types";
import type { CredentialSource } from "@/lib/providers/registry";
import { createCredentialSource } from "./credential-source";

/**
 * The image models a worker offers batch runs: the keyless mock (tuned by
 * PARALLAXR_MOCK_IMAGE_LATENCY_MS and PARALLAXR_MOCK_IMAGE_FAILURE_RATE) and every image vendor,
 * with keys from the user's stored keys or the environment as for text models. A composition
 * root (the server's context, `npm run worker`, the CLI) passes it to startWorker.
 *
 * MOCK_IMAGE_CALL_LOG names a file that gets a line for every mock image call that answered
 * (pid, model, prompt and the id of the image set), so the calls a batch paid for can be counted
 * across processes (a call cut off by a killed process never answered, and costs nothing).
 */
export function createDefaultImageProviderRegistry({
  db,
  secretKey,
  env = process.env,
  wrapCredentials = (stored) => stored,
}: {
  db: Database;
  secretKey: Buffer;
  env?: Environment;
  /** Puts other credentials before the stored ones (`parallaxr batch-run` prefers the keys of the working directory's .env). */
  wrapCredentials?: (stored: CredentialSource) => CredentialSource;
}): ImageProviderRegistry {
  const mock = createMockImageProvider({ behaviour: mockImageBehaviourFromEnv(env) });
  const log = env.MOCK_IMAGE_CALL_LOG;
  return createImageProviderRegistry([log ? loggingAnswers(mock, log) : mock], {
    credentials: wrapCredentials(createCredentialSource({ db, secretKey, env })),
  });
}

function loggingAnswers(provider: ImageModelProvider, file: string): ImageModelProvider {
  return {
    ...provider,
    listModels: () => provider.listModels(),
    async generate(request) {
      const result = await provider.generate(request);
      appendFileSync(
        file,
        `${JSON.stringify({ pid: process.pid, model: request.model, prompt: request.prompt, id: result.receipt.response.id })}\n`,
      );
      return result;
    },
  };
}
