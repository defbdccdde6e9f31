"use client";

import Link from "next/link";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import {
  formatContextWindow,
  formatModelPrice,
  getModelCatalog,
  type CatalogModel,
  type CatalogProvider,
  type ModelCatalog,
} from "@/lib/client/models-api";
import type { ModelOption } from "@/lib/client/run-types";
import { PanelDialog } from "@/components/ui/panel-dialog";

type ModelPickerDialogProps = {
  open: boolean;
  /** "Add a model" or "Change model of column 2". */
  title: string;
  /** The custom id form's button: "Add" or "Change". */
  actionLabel: string;
  /** The column's model when changing one: marked in the list. */
  current: { provider: string; model: string } | null;
  /** The models the workbench loaded: shown until the picker's own catalog arrives. */
  models: ModelOption[] | null;
  loadError: string | null;
  onPick(model: ModelOption): void;
  onClose(): void;
};

/** A provider's models as the picker lists them, or why there are none. */
type ProviderGroup = { provider: CatalogProvider; models: CatalogModel[]; unavailable: string | null };

/**
 * The provider/model picker, a modal shared by "+" (add a column) and a column header (change its
 * model). It lists the models by provider with a filter box, says which providers are unavailable
 * or not set up (with a link to set them up), and takes a custom model id for a configured
 * provider (an OpenRouter model not listed, a fine-tune). The same model may go in two columns.
 */
export function ModelPickerDialog({ open, title, actionLabel, current, models, loadError, onPick, onClose }: ModelPickerDialogProps) {
  const pickerId = useId();
  const filterRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const [catalog, setCatalog] = useState<ModelCatalog | null>(null);
  const [catalogError, setCatalogError] = useState<string | null>(null);
  const [filter, setFilter] = useState("");

  const refreshCatalog = useCallback(() => {
    getModelCatalog()
      .then((loaded) => {
        setCatalog(loaded);
        setCatalogError(null);
      })
      .catch((error: unknown) => setCatalogError(error instanceof Error ? error.message : String(error)));
  }, []);

  // Loaded once up front so the picker opens ready, and again at each opening (a key may have
  // been added in Settings since). The filter takes the focus as the dialog opens (initialFocus).
  useEffect(refreshCatalog, [refreshCatalog]);
  useEffect(() => {
    if (!open) return;
    setFilter("");
    refreshCatalog();
  }, [open, refreshCatalog]);

  const view = catalog ?? (models ? catalogOf(models) : null);
  const { groups, notSetUp, customProviders } = useMemo(() => arrange(view, filter), [view, filter]);
  const shownCount = groups.reduce((count, group) => count + group.models.length, 0);

  function pick(model: ModelOption) {
    onPick(model);
    onClose();
  }

  function options(): HTMLButtonElement[] {
    return Array.from(listRef.current?.querySelectorAll<HTMLButtonElement>("button[data-model-option]") ?? []);
  }

  function handleFilterKey(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown") {
      options()[0]?.focus();
      event.preventDefault();
    } else if (event.key === "Enter") {
      // Enter picks the first match, so "type, Enter" adds a model.
      options()[0]?.click();
      event.preventDefault();
    }
  }

  function handleListKey(event: React.KeyboardEvent<HTMLDivElement>) {
    const all = options();
    const index = all.indexOf(document.activeElement as HTMLButtonElement);
    if (index === -1) return;
    let next: HTMLElement | undefined;
    if (event.key === "ArrowDown") next = all[(index + 1) % all.length];
    else if (event.key === "ArrowUp") next = index === 0 ? (filterRef.current ?? undefined) : all[index - 1];
    else if (event.key === "Home") next = all[0];
    else if (event.key === "End") next = all[all.length - 1];
    else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && event.key !== " ") {
      // Typing on an option goes on typing in the filter.
      filterRef.current?.focus();
      return;
    }
    if (next) {
      next.focus();
      event.preventDefault();
    }
  }

  const noMatches = filter.trim() !== "" && shownCount === 0;

  return (
    <PanelDialog
      open={open}
      onClose={onClose}
      title={title}
      testId="model-picker-dialog"
      widthClassName="w-[min(420px,calc(100vw-32px))] h-[min(640px,85vh)]"
      initialFocus={filterRef}
    >
      <div className="shrink-0 border-b border-zinc-100 px-3 py-2">
        <input
          ref={filterRef}
          type="text"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          onKeyDown={handleFilterKey}
          aria-label="Filter models"
          aria-controls={`${pickerId}-list`}
          aria-describedby={`${pickerId}-count`}
          placeholder="Filter models…"
          autoComplete="off"
          spellCheck={false}
          className="h-8 w-full rounded-lg border border-zinc-300 bg-white px-2.5 text-sm placeholder:text-zinc-500 focus:border-accent focus:ring-2 focus:ring-accent/25 focus-visible:outline-none"
        />
        <p id={`${pickerId}-count`} aria-live="polite" className="sr-only">
          {view ? `${shownCount} ${shownCount === 1 ? "model" : "models"}` : ""}
        </p>
      </div>

      <div ref={listRef} id={`${pickerId}-list`} onKeyDown={handleListKey} className="min-h-0 flex-1 overflow-y-auto p-1.5">
        {!view && loadError && <p className="px-2 py-1.5 text-sm text-red-700">Could not load models: {loadError}</p>}
        {!view && !loadError && <p className="px-2 py-1.5 text-sm text-zinc-600">Loading models…</p>}
        {view && view.models.length === 0 && filter.trim() === "" && (
          <p className="px-2 py-1.5 text-sm text-zinc-600">No models are available.</p>
        )}
        {noMatches && <p className="px-2 py-1.5 text-sm text-zinc-600">No models match “{filter.trim()}”.</p>}
        {catalogError && view && (
          <p className="px-2 py-1.5 text-xs text-zinc-500">Could not check the providers just now: {catalogError}</p>
        )}

        {groups.map((group) => (
          <ModelGroup key={group.provider.id} group={group} current={current} idPrefix={`${pickerId}-${group.provider.id}`} onPick={pick} />
        ))}

        {notSetUp.length > 0 && (
          <div className="mt-1 border-t border-zinc-100 pt-1.5">
            <p id={`${pickerId}-not-set-up`} className="px-2 pt-1 pb-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">
              Not set up
            </p>
            <ul aria-labelledby={`${pickerId}-not-set-up`}>
              {notSetUp.map((provider) => (
                <li key={provider.id} className="flex items-center gap-2 px-2 py-1 text-sm">
                  <span className="min-w-0 flex-1 truncate text-zinc-600" title={provider.label}>
                    {provider.label}
                  </span>
                  <Link
                    href={`/settings/keys#${provider.id}`}
                    className="shrink-0 rounded text-xs font-medium text-accent-strong underline-offset-2 hover:underline"
                  >
                    {provider.needsKey ? "Add a key" : "Add a base URL"}
                    <span className="sr-only"> for {provider.label}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>

      {customProviders.length > 0 && (
        <CustomModelForm providers={customProviders} idPrefix={pickerId} actionLabel={actionLabel} onAdd={pick} />
      )}
    </PanelDialog>
  );
}

function ModelGroup({
  group,
  current,
  idPrefix,
  onPick,
}: {
  group: ProviderGroup;
  current: { provider: string; model: string } | null;
  idPrefix: string;
  onPick(model: ModelOption): void;
}) {
  const headingId = `${idPrefix}-heading`;
  return (
    <div className="pb-1">
      <p id={headingId} className="px-2 pt-1.5 pb-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase">
        {group.provider.label}
      </p>
      {group.unavailable && <p className="px-2 pb-1.5 text-xs text-zinc-500">{group.unavailable}</p>}
      {group.models.length > 0 && (
        <ul aria-labelledby={headingId}>
          {group.models.map((model, index) => {
            const windowText = formatContextWindow(model.contextWindow);
            const priceText = formatModelPrice(model.price);
            const context = windowText ? `${windowText} · ${priceText}` : priceText;
            const detail = model.description ?? nameFromLabel(model);
            const detailId = `${idPrefix}-${index}-detail`;
            const isCurrent = current?.provider === model.provider && current.model === model.model;
            return (
              <li
                key={model.model}
                className="relative rounded-lg px-2 py-1.5 hover:bg-accent-soft has-[:focus-visible]:bg-accent-soft has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent-strong has-[[aria-current=true]]:bg-accent-soft has-[[aria-current=true]]:ring-1 has-[[aria-current=true]]:ring-accent-line"
              >
                {/* The button's visible text is the model's name alone, so its accessible name ("mock / echo")
                    contains all it shows (WCAG 2.5.3); the details are read as its description, and the
                    button's ::after stretches its hit area over the whole row. */}
                <span className="flex items-baseline gap-2">
                  <button
                    type="button"
                    data-model-option
                    aria-label={`${model.provider} / ${model.model}`}
                    aria-describedby={context || detail ? detailId : undefined}
                    aria-current={isCurrent ? "true" : undefined}
                    onClick={() =>
                      onPick({ provider: model.provider, model: model.model, label: model.label, description: model.description })
                    }
                    title={model.model}
                    className="min-w-0 flex-1 truncate text-left text-sm font-medium after:absolute after:inset-0 after:rounded-lg focus-visible:outline-none"
                  >
                    {model.model}
                  </button>
                  {isCurrent && <span className="pointer-events-none shrink-0 text-[11px] font-medium text-accent-strong">current</span>}
                  {context && <span className="pointer-events-none shrink-0 text-xs text-zinc-500 tabular-nums">{context}</span>}
                </span>
                {(context || detail) && (
                  <span id={detailId} className="pointer-events-none line-clamp-1 block text-xs text-zinc-600">
                    {/* Read after the name: "128k context. Echoes its input…" */}
                    {context && <span className="sr-only">{context}. </span>}
                    {detail}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function CustomModelForm({
  providers,
  idPrefix,
  actionLabel,
  onAdd,
}: {
  providers: CatalogProvider[];
  idPrefix: string;
  actionLabel: string;
  onAdd(model: ModelOption): void;
}) {
  const [provider, setProvider] = useState(providers[0].id);
  const [model, setModel] = useState("");
  const [error, setError] = useState<string | null>(null);
  const chosen = providers.some((candidate) => candidate.id === provider) ? provider : providers[0].id;
  const labelId = `${idPrefix}-custom`;
  const errorId = `${idPrefix}-custom-error`;

  return (
    <form
      aria-labelledby={labelId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const id = model.trim();
        if (!id) {
          setError("Type the model id, as the provider spells it.");
          return;
        }
        setError(null);
        setModel("");
        onAdd({ provider: chosen, model: id, label: id });
      }}
      className="shrink-0 border-t border-zinc-100 bg-canvas p-2"
    >
      <p id={labelId} className="px-1 pb-1.5 text-xs font-medium text-zinc-500">
        Or type a model id
      </p>
      <div className="flex items-center gap-1.5">
        <select
          value={chosen}
          onChange={(event) => setProvider(event.target.value)}
          aria-label="Provider of the custom model"
          className="h-8 w-[112px] shrink-0 rounded-lg border border-zinc-300 bg-white px-1.5 text-sm focus:border-accent focus:ring-2 focus:ring-accent/25 focus-visible:outline-none"
        >
          {providers.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.label}
            </option>
          ))}
        </select>
        <input
          value={model}
          onChange={(event) => {
            setModel(event.target.value);
            if (error) setError(null);
          }}
          aria-label="Custom model id"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          placeholder="Model id"
          autoComplete="off"
          spellCheck={false}
          className="h-8 min-w-0 flex-1 rounded-lg border border-zinc-300 bg-white px-2 text-sm placeholder:text-zinc-500 focus:border-accent focus:ring-2 focus:ring-accent/25 focus-visible:outline-none aria-[invalid=true]:border-red-400"
        />
        <button
          type="submit"
          className="h-8 shrink-0 rounded-lg bg-accent-strong px-3 text-sm font-medium text-white hover:bg-accent-stronger"
        >
          {actionLabel}
        </button>
      </div>
      {error && (
        <p id={errorId} role="alert" className="px-1 pt-1.5 text-xs text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}

/** The workbench's plain model list, as a catalog of configured providers. */
function catalogOf(models: ModelOption[]): ModelCatalog {
  const ids = [...new Set(models.map((model) => model.provider))];
  return {
    models,
    providers: ids.map((id) => ({ id, label: id, needsKey: false, configured: true })),
    unavailable: [],
  };
}

/** Splits the catalog into what the picker shows for filter: groups, providers not set up, custom targets. */
function arrange(view: ModelCatalog | null, filter: string) {
  if (!view) return { groups: [], notSetUp: [], customProviders: [] };
  const terms = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (text: string) => terms.every((term) => text.toLowerCase().includes(term));

  const providers = new Map(view.providers.map((provider) => [provider.id, provider]));
  // A model of a provider the list does not name still shows, under its id.
  for (const model of view.models) {
    if (!providers.has(model.provider)) {
      providers.set(model.provider, { id: model.provider, label: model.provider, needsKey: false, configured: true });
    }
  }
  const unavailable = new Map(view.unavailable.map((entry) => [entry.provider, entry.message]));

  const groups: ProviderGroup[] = [];
  const notSetUp: CatalogProvider[] = [];
  for (const provider of providers.values()) {
    const providerText = `${provider.id} ${provider.label}`;
    if (!provider.configured) {
      if (matches(providerText)) notSetUp.push(provider);
      continue;
    }
    const shown = view.models.filter(
      (model) => model.provider === provider.id && matches(`${providerText} / ${model.model} ${model.label}`),
    );
    const reason = unavailable.get(provider.id) ?? null;
    if (shown.length > 0 || (reason && matches(providerText))) groups.push({ provider, models: shown, unavailable: reason });
  }
  // The mock's models are a fixed set of behaviours: a typed id means nothing to it. Providers
  // that answered come first, so the default is one that works.
  const customProviders = [...providers.values()]
    .filter((provider) => provider.configured && provider.id !== "mock")
    .sort((a, b) => Number(unavailable.has(a.id)) - Number(unavailable.has(b.id)));
  return { groups, notSetUp, customProviders };
}

/** "OpenAI: GPT-4o mini" from the label "OpenRouter / OpenAI: GPT-4o mini", when it says more than the id. */
function nameFromLabel(model: CatalogModel): string | undefined {
  const slash = model.label.indexOf(" / ");
  const name = slash === -1 ? model.label : model.label.slice(slash + 3);
  return name && name !== model.model ? name : undefined;
}
