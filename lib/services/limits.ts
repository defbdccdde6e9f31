import type { z } from "zod";
import type { saveLimitsSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { listProviderLimits, resetThrottle, saveProviderLimits, type ProviderLimits } from "@/lib/db/limits/provider-limits";
import { InvalidInputError, NotFoundError } from "@/lib/engine/errors";
import type { ProviderRegistry } from "@/lib/providers/registry";

/** userId's limits per provider, with the engine's current adaptive limit after 429s. */
export async function listLimits({ db }: { db: Database }, { userId }: { userId: string }): Promise<{ limits: ProviderLimits[] }> {
  return { limits: await asUser(db, userId, (tx) => listProviderLimits(tx)) };
}

/** Sets userId's limits for a provider the registry knows (null lifts one); resets the engine's throttle. */
export async function saveLimits(
  { db, providers }: { db: Database; providers: ProviderRegistry },
  { userId, provider, limits }: { userId: string; provider: string; limits: z.infer<typeof saveLimitsSchema> },
): Promise<{ saved: true }> {
  if (!providers.has(provider)) throw new InvalidInputError(`Unknown provider "${provider}".`, "provider");
  await asUser(db, userId, (tx) => saveProviderLimits(tx, { provider, ...limits }));
  return { saved: true };
}

/**
 * Lifts the engine's throttle of one of userId's credentials (Settings -> Limits' Reset); the next
 * claim may use the user's full limit again. 404 when the credential is not throttled.
 */
export async function resetThrottleOf(
  { db }: { db: Database },
  { userId, credential }: { userId: string; credential: string },
): Promise<{ saved: true }> {
  if (!(await asUser(db, userId, (tx) => resetThrottle(tx, { credential })))) {
    throw new NotFoundError(`${credential} is not throttled.`, "credential");
  }
  return { saved: true };
}
