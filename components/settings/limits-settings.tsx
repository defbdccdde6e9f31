"use client";

import { listLimits, type ProviderLimit } from "@/lib/client/limits-api";
import { getModelCatalog, type CatalogProvider } from "@/lib/client/models-api";
import { useLoad } from "@/lib/client/use-load";
import { ErrorAlert } from "@/components/ui/error-alert";
import { ClearCacheSection } from "./clear-cache-section";
import { ProviderLimitRow } from "./provider-limit-row";
import { SettingsButton } from "./settings-controls";
import { SettingsPageHeading } from "./settings-page-heading";
import { GaugeIcon } from "@/components/ui/icons";

type Loaded = { providers: CatalogProvider[]; limits: Map<string, ProviderLimit>; throttles: ProviderLimit[] };

async function loadLimits(): Promise<Loaded> {
  const [catalog, limits] = await Promise.all([getModelCatalog(), listLimits()]);
  return {
    providers: catalog.providers,
    limits: new Map(limits.map((limit) => [limit.provider, limit])),
    throttles: limits.filter((limit) => limit.adaptiveLimit !== null),
  };
}

/** The throttled credentials of a provider: its own, and for the mock each model's ("mock/flaky"). */
function throttlesOf(providerId: string, throttles: ProviderLimit[]): ProviderLimit[] {
  return throttles.filter((limit) => limit.provider === providerId || limit.provider.startsWith(`${providerId}/`));
}

/** Settings -> Limits: how hard Parallaxr may call each provider, and where it throttled itself. */
export function LimitsSettings() {
  const { data: loaded, error: loadError, reload, dismissError } = useLoad(loadLimits);

  return (
    <div className="mx-auto flex max-w-[1000px] flex-col gap-5">
      <SettingsPageHeading title="Rate limits" />

      <div className="flex items-start gap-3 rounded-lg border border-accent-line bg-accent-soft px-4 py-3 text-sm text-zinc-700">
        <GaugeIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-strong" />
        <p>
          Runs call each provider at most this hard, across all your runs. Leave a field empty for no limit. When a provider answers 429,
          Parallaxr lowers its concurrency for a while (each mock model on its own) and says so here, with a way to reset it.
        </p>
      </div>

      {loadError && (
        <div className="flex flex-col items-start gap-2">
          <div className="self-stretch">
            <ErrorAlert message={`Could not load the limits: ${loadError}`} onDismiss={dismissError} />
          </div>
          <SettingsButton onClick={reload}>Try again</SettingsButton>
        </div>
      )}
      {!loaded && !loadError && <p className="text-sm text-zinc-600">Loading providers…</p>}

      {loaded && (
        <div className="divide-y divide-zinc-200 overflow-hidden rounded-lg border border-zinc-200 bg-white">
          {loaded.providers.map((provider) => (
            <ProviderLimitRow
              key={provider.id}
              provider={provider}
              limit={loaded.limits.get(provider.id) ?? null}
              throttles={throttlesOf(provider.id, loaded.throttles)}
              onSaved={reload}
            />
          ))}
        </div>
      )}

      <ClearCacheSection />
    </div>
  );
}
