// Typed fetch helpers for the per-provider request limits of Settings -> Limits.
import { requestJson } from "./api";

/** How hard Parallaxr may call a provider (null: no limit). */
export type ProviderLimit = {
  provider: string;
  maxConcurrency: number | null;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  /** The concurrency the engine fell back to after 429s, or null when not throttled. */
  adaptiveLimit: number | null;
};

/** The caller's limits, one per provider that has any. */
export async function listLimits(): Promise<ProviderLimit[]> {
  const body = await requestJson<{ limits: ProviderLimit[] }>("/api/v1/limits");
  return body.limits;
}

/** Sets a provider's limits; null removes one. */
export function saveLimit({
  provider,
  ...limits
}: {
  provider: string;
  maxConcurrency: number | null;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
}): Promise<unknown> {
  return requestJson(`/api/v1/limits/${encodeURIComponent(provider)}`, { method: "PUT", body: JSON.stringify(limits) });
}
