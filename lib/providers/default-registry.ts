import { appendFileSync } from "node:fs";
import { createMockProvider } from "./mock-provider";
import { createProviderRegistry, type ProviderRegistry } from "./registry";

/**
 * The providers this server offers, from the environment. MOCK_CALL_LOG names a file that gets a
 * line for every mock call (model and prompt), so runs across processes can be audited.
 */
export function createDefaultProviderRegistry(env: NodeJS.ProcessEnv = process.env): ProviderRegistry {
  const callLog = env.MOCK_CALL_LOG;
  const mock = createMockProvider({
    onCall: callLog
      ? (call) => appendFileSync(callLog, `${JSON.stringify({ pid: process.pid, ...call })}\n`)
      : undefined,
  });
  return createProviderRegistry([mock]);
}
