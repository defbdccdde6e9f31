// Typed fetch helpers for the per-provider request limits of Settings -> Limits.
import type { ProviderLimit } from "@/lib/api/responses";
import type { SaveLimitsRequest } from "@/lib/api/schemas";
import { requestJson } from "./api";

export type { ProviderLimit };

/** The caller's limits, one per provider that has any. */
export async function listLimits(): Promise<ProviderLimit[]> {
  const body = await requestJson<{ limits: ProviderLimit[] }>("/api/v1/limits");
  return body.limits;
}

/** Sets a provider's limits; null removes one. */
export function saveLimit({ provider, ...limits }: { provider: string } & SaveLimitsRequest): Promise<unknown> {
  return requestJson(`/api/v1/limits/${encodeURIComponent(provider)}`, { method: "PUT", body: JSON.stringify(limits) });
}

/** Lifts the throttle Parallaxr put on a credential (a provider, or mock/<model>) after 429s. */
export function resetThrottle({ credential }: { credential: string }): Promise<unknown> {
  return requestJson("/api/v1/limits/reset-throttle", { method: "POST", body: JSON.stringify({ credential }) });
}
