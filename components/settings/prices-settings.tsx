"use client";

import { useEffect, useId, useState } from "react";
import { getModelCatalog } from "@/lib/client/models-api";
import { formatPricePerMillion } from "@/lib/client/format-money";
import { listPrices, savePrice, type PriceReference } from "@/lib/client/prices-api";
import { useAction } from "@/lib/client/use-action";
import { useLoad } from "@/lib/client/use-load";
import { ErrorAlert } from "@/components/ui/error-alert";
import { readPriceFields } from "./price-input";
import { PriceInput, PriceRow } from "./price-row";
import { inputClassName, SettingsButton } from "./settings-controls";
import { SettingsPageHeading } from "./settings-page-heading";
import { TagIcon } from "@/components/ui/icons";

const priceKey = (price: { provider: string; model: string }) => `${price.provider}/${price.model}`;

/** "12 May 2025" from an ISO date. */
function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
}

/** Settings -> Prices: the person's prices (edited inline), a row to add one, and the shipped reference. */
export function PricesSettings() {
  const { data: loaded, error: loadError, reload: load, dismissError } = useLoad(listPrices);
  const [providers, setProviders] = useState<string[]>([]);
  const [editingKey, setEditingKey] = useState<string | null>(null);
  const [overrideError, setOverrideError] = useState<{ key: string; message: string } | null>(null);

  useEffect(() => {
    getModelCatalog()
      .then((catalog) => setProviders(catalog.providers.map((provider) => provider.id)))
      .catch(() => setProviders([]));
  }, []);

  // Every provider the server knows, and any that only the reference names.
  const providerOptions = [...new Set([...providers, ...(loaded?.reference.prices.map((price) => price.provider) ?? [])])];
  const userKeys = new Set(loaded?.prices.map(priceKey));

  async function override(price: PriceReference["prices"][number]) {
    const key = priceKey(price);
    setOverrideError(null);
    try {
      await savePrice({
        provider: price.provider,
        model: price.model,
        inputPerMTok: price.inputPerMTok,
        outputPerMTok: price.outputPerMTok,
      });
      setEditingKey(key);
      load();
    } catch (reason) {
      setOverrideError({ key, message: reason instanceof Error ? reason.message : String(reason) });
    }
  }

  return (
    <div className="mx-auto flex max-w-[1000px] flex-col gap-5">
      <SettingsPageHeading title="Prices" />

      <div className="flex items-start gap-3 rounded-lg border border-accent-line bg-accent-soft px-4 py-3 text-sm text-zinc-700">
        <TagIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-strong" />
        <p>
          Costs and run estimates use these prices, in dollars per million tokens. A price of yours wins over the reference list below; a
          model with neither is shown as unpriced, never as free.
        </p>
      </div>

      {loadError && (
        <div className="flex flex-col items-start gap-2">
          <div className="self-stretch">
            <ErrorAlert message={`Could not load the prices: ${loadError}`} onDismiss={dismissError} />
          </div>
          <SettingsButton onClick={load}>Try again</SettingsButton>
        </div>
      )}
      {!loaded && !loadError && <p className="text-sm text-zinc-600">Loading prices…</p>}

      {loaded && (
        <>
          <section aria-labelledby="your-prices-heading" className="flex flex-col gap-2">
            <h2 id="your-prices-heading" className="text-sm font-semibold text-zinc-900">
              Your prices
            </h2>
            <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white">
              <ColumnHeadings last="" />
              {loaded.prices.length === 0 ? (
                <p className="border-b border-zinc-200 px-4 py-3 text-sm text-zinc-600">
                  None yet: the reference prices apply. Add one below, or override a reference price.
                </p>
              ) : (
                <ul aria-label="Your prices" className="divide-y divide-zinc-200 border-b border-zinc-200">
                  {loaded.prices.map((price) => (
                    <PriceRow
                      key={`${priceKey(price)}:${price.inputPerMTok}:${price.outputPerMTok}`}
                      price={price}
                      startEditing={editingKey === priceKey(price)}
                      onChanged={() => {
                        setEditingKey(null);
                        load();
                      }}
                    />
                  ))}
                </ul>
              )}
              <AddPriceRow providers={providerOptions} onAdded={load} />
            </div>
          </section>

          <section aria-labelledby="reference-heading" className="flex flex-col gap-2">
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <h2 id="reference-heading" className="text-sm font-semibold text-zinc-900">
                Reference prices
              </h2>
              <p className="text-xs text-zinc-600">Checked {formatDate(loaded.reference.checkedAt)}</p>
            </div>
            <p className="text-sm text-zinc-600">{loaded.reference.note}</p>
            <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white">
              <ColumnHeadings last="" />
              <ul aria-label="Reference prices" className="divide-y divide-zinc-200">
                {loaded.reference.prices.map((price) => {
                  const key = priceKey(price);
                  const name = `${price.provider} / ${price.model === "*" ? "every model" : price.model}`;
                  return (
                    <li key={key} aria-label={name} className="flex flex-col gap-2 px-4 py-2.5">
                      <div className="grid grid-cols-[minmax(0,1fr)_150px_150px_176px] items-center gap-3">
                        <div className="min-w-0">
                          <p className="truncate text-sm text-zinc-900">{price.model === "*" ? "Every model" : price.model}</p>
                          <p className="text-xs text-zinc-600">{price.provider}</p>
                        </div>
                        <p className="text-sm text-zinc-700 tabular-nums">
                          <span className="sr-only">Input: </span>
                          {formatPricePerMillion(price.inputPerMTok)}
                        </p>
                        <p className="text-sm text-zinc-700 tabular-nums">
                          <span className="sr-only">Output: </span>
                          {formatPricePerMillion(price.outputPerMTok)}
                        </p>
                        <div className="flex justify-end">
                          {userKeys.has(key) ? (
                            <span className="text-xs text-zinc-600">Overridden</span>
                          ) : (
                            <SettingsButton onClick={() => void override(price)} aria-label={`Override ${name}`}>
                              Override
                            </SettingsButton>
                          )}
                        </div>
                      </div>
                      {overrideError?.key === key && (
                        <p role="alert" className="text-sm text-red-700">
                          {overrideError.message}
                        </p>
                      )}
                    </li>
                  );
                })}
              </ul>
            </div>
          </section>
        </>
      )}
    </div>
  );
}

function ColumnHeadings({ last }: { last: string }) {
  return (
    <div
      aria-hidden="true"
      className="grid grid-cols-[minmax(0,1fr)_150px_150px_176px] gap-3 border-b border-zinc-200 bg-zinc-50 px-4 py-2 text-xs font-medium text-zinc-600"
    >
      <span>Model</span>
      <span>Input</span>
      <span>Output</span>
      <span className="text-right">{last}</span>
    </div>
  );
}

/** The last row of "Your prices": provider, model id, input and output price, Add. */
function AddPriceRow({ providers, onAdded }: { providers: string[]; onAdded(): void }) {
  const id = useId();
  const [provider, setProvider] = useState("");
  const [model, setModel] = useState("");
  const [input, setInput] = useState("");
  const [output, setOutput] = useState("");
  const { busy, error, setError, run } = useAction();
  const chosenProvider = provider || providers[0] || "";

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    const fields = readPriceFields(input, output);
    if (!fields.ok) {
      setError(fields.message);
      return;
    }
    const { inputPerMTok, outputPerMTok } = fields;
    await run(async () => {
      await savePrice({ provider: chosenProvider, model: model.trim(), inputPerMTok, outputPerMTok });
      setModel("");
      setInput("");
      setOutput("");
      onAdded();
    });
  }

  return (
    <form onSubmit={handleSubmit} aria-labelledby={`${id}-title`} className="flex flex-col gap-2 bg-zinc-50/60 px-4 py-3">
      <h3 id={`${id}-title`} className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">
        Add a price
      </h3>
      <div className="grid grid-cols-[minmax(0,1fr)_150px_150px_176px] items-center gap-3">
        <div className="grid min-w-0 grid-cols-[9rem_minmax(0,1fr)] gap-2">
          <label htmlFor={`${id}-provider`} className="sr-only">
            Provider
          </label>
          <select
            id={`${id}-provider`}
            value={chosenProvider}
            onChange={(event) => setProvider(event.target.value)}
            className={inputClassName}
          >
            {providers.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-model`} className="sr-only">
            Model id
          </label>
          <input
            id={`${id}-model`}
            value={model}
            onChange={(event) => setModel(event.target.value)}
            placeholder="model id, or * for all"
            autoComplete="off"
            required
            className={`${inputClassName} font-mono text-[13px]`}
          />
        </div>
        <PriceInput id={`${id}-in`} label="Input price" value={input} onChange={setInput} invalid={!!error} />
        <PriceInput id={`${id}-out`} label="Output price" value={output} onChange={setOutput} invalid={!!error} />
        <div className="flex justify-end">
          <SettingsButton type="submit" tone="primary" disabled={busy || chosenProvider === ""}>
            Add price
          </SettingsButton>
        </div>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
