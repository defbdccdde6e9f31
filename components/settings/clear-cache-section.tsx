"use client";

import { useState } from "react";
import { requestJson } from "@/lib/client/api";
import { useAction } from "@/lib/client/use-action";
import { SettingsButton } from "./settings-controls";

/**
 * The response cache: identical inputs to the same model are answered from it (free, marked
 * "cached") for 7 days; clearing it makes the next runs call the models again.
 */
export function ClearCacheSection() {
  const [cleared, setCleared] = useState<string | null>(null);
  const { busy, error, run } = useAction();

  async function clear() {
    setCleared(null);
    await run(async () => {
      const { deleted } = await requestJson<{ deleted: number }>("/api/v1/cache", { method: "DELETE" });
      setCleared(deleted === 1 ? "Cleared 1 cached answer." : `Cleared ${deleted} cached answers.`);
    });
  }

  return (
    <section aria-labelledby="cache-heading" className="flex flex-col gap-2 rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <h2 id="cache-heading" className="text-sm font-semibold text-zinc-900">
        Response cache
      </h2>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-zinc-700">
          A run sending the same input to the same model with the same parameters is answered from the cache, free and marked “cached”.
          Re-running a cell always calls the model.
        </p>
        <SettingsButton onClick={clear} disabled={busy}>
          {busy ? "Clearing…" : "Clear cache"}
        </SettingsButton>
      </div>
      <p aria-live="polite" className={`text-sm ${error !== null ? "text-red-700" : "text-emerald-700"}`}>
        {error ?? cleared}
      </p>
    </section>
  );
}
