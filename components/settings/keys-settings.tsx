"use client";

import { useCallback, useEffect } from "react";
import { listKeys, type KeyProvider, type ProviderKeySummary } from "@/lib/client/keys-api";
import { useLoad } from "@/lib/client/use-load";
import { ErrorAlert } from "@/components/ui/error-alert";
import { hasKeySettings } from "./provider-key-hints";
import { ProviderKeyRow } from "./provider-key-row";
import { SettingsButton } from "./settings-controls";
import { LockIcon } from "@/components/ui/icons";

type Loaded = { providers: KeyProvider[]; keys: Map<string, ProviderKeySummary> };

async function loadKeys(): Promise<Loaded> {
  const { keys, providers } = await listKeys();
  return { providers: providers.filter(hasKeySettings), keys: new Map(keys.map((key) => [key.provider, key])) };
}

/** Settings -> Keys: the note on how keys are kept, then one row per provider. */
export function KeysSettings() {
  const { data: loaded, error: loadError, reload, setData: setLoaded, dismissError } = useLoad(loadKeys);

  // The picker's "Add a key" links to /settings/keys#<provider>: the rows only exist once loaded,
  // so the browser could not scroll to it; take the person to that row's key input now.
  const hasLoaded = loaded !== null;
  useEffect(() => {
    if (!hasLoaded || !window.location.hash) return;
    const row = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    row?.scrollIntoView({ block: "center" });
    row?.querySelector<HTMLInputElement>("input")?.focus();
  }, [hasLoaded]);

  const setStored = useCallback(
    (provider: string, summary: ProviderKeySummary | null) => {
      setLoaded((current) => {
        if (!current) return current;
        const keys = new Map(current.keys);
        if (summary) keys.set(provider, summary);
        else keys.delete(provider);
        return { ...current, keys };
      });
    },
    [setLoaded],
  );

  return (
    <div className="mx-auto flex max-w-[1000px] flex-col gap-5">
      <div className="flex flex-col gap-1">
        <p className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">Settings</p>
        <h1 className="text-xl font-semibold tracking-tight text-zinc-900">API keys</h1>
      </div>

      <div className="flex items-start gap-3 rounded-lg border border-accent-line bg-accent-soft px-4 py-3 text-sm text-zinc-700">
        <LockIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-strong" />
        <p>
          Keys are encrypted at rest with AES-256-GCM and are never shown again: after saving, only their last four characters are. The
          server uses them for your runs; a key set in the server&apos;s <code className="font-mono text-[13px]">.env</code> applies when
          none is saved here.
        </p>
      </div>

      {loadError && (
        <div className="flex flex-col items-start gap-2">
          <div className="self-stretch">
            <ErrorAlert message={`Could not load the keys: ${loadError}`} onDismiss={dismissError} />
          </div>
          <SettingsButton onClick={reload}>Try again</SettingsButton>
        </div>
      )}
      {!loaded && !loadError && <p className="text-sm text-zinc-600">Loading providers…</p>}

      {loaded && (
        <div className="divide-y divide-zinc-200 overflow-hidden rounded-lg border border-zinc-200 bg-white">
          {loaded.providers.map((provider) => (
            <ProviderKeyRow
              key={provider.id}
              provider={provider}
              stored={loaded.keys.get(provider.id) ?? null}
              onStoredChange={(summary) => setStored(provider.id, summary)}
            />
          ))}
        </div>
      )}
    </div>
  );
}
