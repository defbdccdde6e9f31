"use client";

import { Fragment, useId, useRef, useState } from "react";
import { ApiError } from "@/lib/client/api";
import { formatLatency } from "@/lib/client/format-metrics";
import { deleteKey, saveKey, testKey, type KeyProvider, type ProviderKeySummary } from "@/lib/client/keys-api";
import { ErrorAlert } from "@/components/ui/error-alert";
import { providerKeyHints } from "./provider-key-hints";
import { inputClassName, SettingsButton } from "./settings-controls";

type ProviderKeyRowProps = {
  provider: KeyProvider;
  stored: ProviderKeySummary | null;
  onStoredChange(summary: ProviderKeySummary | null): void;
};

type RowError = { message: string; field: string | null };
type Notice = { tone: "ok" | "error" | "pending"; text: string };

const NOTICE_TONES: Record<Notice["tone"], string> = {
  ok: "text-emerald-800",
  error: "text-red-700",
  pending: "text-zinc-600",
};

/**
 * One provider on the keys page: its status, a write-only key input (plus a base URL for the
 * providers that take one), Save, Test and Remove. The key is read from the input at Save and the
 * input is emptied once the server has it; it is never held in React state, so it is never
 * rendered back into the page.
 */
export function ProviderKeyRow({ provider, stored, onStoredChange }: ProviderKeyRowProps) {
  const hints = providerKeyHints(provider.id);
  const takesBaseUrl = hints.baseUrlPlaceholder !== undefined;
  const keyOptional = !provider.needsKey;
  const id = useId();
  const ids = {
    heading: `${id}-heading`,
    key: `${id}-key`,
    baseUrl: `${id}-base-url`,
    error: `${id}-error`,
    test: `${id}-test`,
    testModel: `${id}-test-model`,
  };

  const keyInput = useRef<HTMLInputElement>(null);
  const cancelRemoveButton = useRef<HTMLButtonElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const [baseUrl, setBaseUrl] = useState(stored?.baseUrl ?? "");
  const [busy, setBusy] = useState<"save" | "remove" | "test" | null>(null);
  const [error, setError] = useState<RowError | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const [testOpen, setTestOpen] = useState(false);
  const [testModel, setTestModel] = useState(hints.testModel);

  function startAction() {
    setError(null);
    setNotice(null);
  }

  async function handleSave(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    startAction();
    const input = keyInput.current;
    if (!input) return;
    const apiKey = input.value.trim();
    const url = baseUrl.trim();
    if (!apiKey && !keyOptional) {
      const again =
        stored && takesBaseUrl ? " The stored key is never sent back to this page, so it is needed again to change the base URL." : "";
      setError({ field: "apiKey", message: `Paste a ${provider.label} key first.${again}` });
      input.focus();
      return;
    }
    if (!apiKey && stored && stored.last4 !== "" && url !== (stored.baseUrl ?? "")) {
      setError({
        field: "apiKey",
        message: `Paste the ${provider.label} key again to use it with another base URL: a saved key is only sent to the URL it was saved with.`,
      });
      input.focus();
      return;
    }
    if (!apiKey && !url) {
      setError({ field: "baseUrl", message: `Enter the base URL of your ${provider.label} server, a key, or both.` });
      return;
    }
    setBusy("save");
    try {
      const summary = await saveKey({
        provider: provider.id,
        apiKey: apiKey || undefined,
        baseUrl: takesBaseUrl ? url || null : undefined,
      });
      input.value = "";
      onStoredChange(summary);
      setBaseUrl(summary.baseUrl ?? "");
      setNotice({ tone: "ok", text: `Saved. The ${provider.label} key ends in ${summary.last4}.` });
    } catch (caught) {
      setError(toRowError(caught));
    } finally {
      setBusy(null);
    }
  }

  async function handleRemove() {
    if (busy) return;
    startAction();
    setBusy("remove");
    const removed = () => {
      onStoredChange(null);
      setNotice({ tone: "ok", text: `Removed the ${provider.label} key.` });
      // The Remove button goes away with the key: keep keyboard focus in the row.
      keyInput.current?.focus();
    };
    try {
      await deleteKey({ provider: provider.id });
      removed();
    } catch (caught) {
      // Already gone (removed in another tab): the outcome the person asked for.
      if (caught instanceof ApiError && caught.status === 404) removed();
      else setError(toRowError(caught));
    } finally {
      setBusy(null);
      setConfirmingRemove(false);
    }
  }

  async function handleTest(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    startAction();
    const model = testModel.trim();
    if (!model) {
      setError({ field: "model", message: `Enter the id of a ${provider.label} model to try the key with.` });
      return;
    }
    setBusy("test");
    setNotice({ tone: "pending", text: `Calling ${model}…` });
    try {
      const result = await testKey({ provider: provider.id, model });
      setNotice(
        result.ok
          ? { tone: "ok", text: `It works: ${model} answered in ${formatLatency(result.latencyMs)}.` }
          : { tone: "error", text: result.message },
      );
    } catch (caught) {
      setNotice(null);
      setError(toRowError(caught));
    } finally {
      setBusy(null);
    }
  }

  const invalid = (field: string) => (error?.field === field ? { "aria-invalid": true, "aria-describedby": ids.error } : {});

  return (
    <section
      id={provider.id}
      aria-labelledby={ids.heading}
      className="grid scroll-mt-4 grid-cols-[190px_minmax(0,1fr)] gap-x-6 gap-y-3 px-5 py-4"
    >
      <div className="flex min-w-0 flex-col gap-1 pt-[22px]">
        <h2 id={ids.heading} className="text-sm font-semibold text-zinc-900">
          {provider.label}
        </h2>
        <KeyStatus stored={stored} defaultBaseUrl={provider.defaultBaseUrl ?? hints.baseUrlPlaceholder ?? null} />
      </div>

      <div className="flex min-w-0 flex-col">
        <form onSubmit={handleSave} className="flex items-end gap-3" noValidate>
          <div className={`grid min-w-0 flex-1 gap-3 ${takesBaseUrl ? "grid-cols-2" : "grid-cols-1"}`}>
            <div className="flex min-w-0 flex-col gap-1">
              <label htmlFor={ids.key} className="text-xs font-medium text-zinc-600">
                API key<span className="sr-only"> for {provider.label}</span>
                {keyOptional && <span className="font-normal text-zinc-500"> (optional)</span>}
              </label>
              <input
                ref={keyInput}
                id={ids.key}
                name="apiKey"
                type="password"
                autoComplete="off"
                spellCheck={false}
                data-1p-ignore
                data-lpignore="true"
                placeholder={stored?.last4 ? `Paste a new key to replace …${stored.last4}` : hints.keyPlaceholder}
                className={inputClassName}
                {...invalid("apiKey")}
              />
            </div>
            {takesBaseUrl && (
              <div className="flex min-w-0 flex-col gap-1">
                <label htmlFor={ids.baseUrl} className="text-xs font-medium text-zinc-600">
                  Base URL<span className="sr-only"> for {provider.label}</span>
                  {provider.needsKey && <span className="font-normal text-zinc-500"> (optional)</span>}
                </label>
                <input
                  id={ids.baseUrl}
                  name="baseUrl"
                  type="url"
                  inputMode="url"
                  autoComplete="off"
                  spellCheck={false}
                  value={baseUrl}
                  onChange={(event) => setBaseUrl(event.target.value)}
                  placeholder={hints.baseUrlPlaceholder}
                  className={inputClassName}
                  {...invalid("baseUrl")}
                />
              </div>
            )}
          </div>
          <div className="flex w-[214px] shrink-0 items-center gap-2">
            <SettingsButton type="submit" tone="primary" disabled={busy === "save"}>
              {busy === "save" ? "Saving…" : "Save"}
            </SettingsButton>
            <SettingsButton
              aria-expanded={testOpen}
              aria-controls={ids.test}
              onClick={() => {
                const opening = !testOpen;
                setTestOpen(opening);
                if (opening) requestAnimationFrame(() => document.getElementById(ids.testModel)?.focus());
              }}
            >
              Test
            </SettingsButton>
            {stored && (
              <SettingsButton
                ref={removeButton}
                tone="danger"
                aria-expanded={confirmingRemove}
                onClick={() => {
                  setConfirmingRemove(true);
                  requestAnimationFrame(() => cancelRemoveButton.current?.focus());
                }}
              >
                Remove
              </SettingsButton>
            )}
          </div>
        </form>

        {confirmingRemove && stored && (
          <div className="mt-3 flex items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
            <p className="min-w-0 flex-1">
              {stored.last4
                ? `Remove the ${provider.label} key ending in ${stored.last4}? Runs can no longer call ${provider.label} with it.`
                : `Remove the saved ${provider.label} base URL? Runs then use the default one.`}
            </p>
            <SettingsButton tone="danger-solid" onClick={() => void handleRemove()} disabled={busy === "remove"}>
              {busy === "remove" ? "Removing…" : "Remove key"}
            </SettingsButton>
            <SettingsButton
              ref={cancelRemoveButton}
              onClick={() => {
                setConfirmingRemove(false);
                requestAnimationFrame(() => removeButton.current?.focus());
              }}
            >
              Cancel
            </SettingsButton>
          </div>
        )}

        {testOpen && (
          <form
            id={ids.test}
            onSubmit={handleTest}
            noValidate
            className="mt-3 flex items-center gap-3 rounded-lg border border-zinc-200 bg-canvas px-3 py-2"
          >
            <label htmlFor={ids.testModel} className="shrink-0 text-xs font-medium text-zinc-600">
              Test with model<span className="sr-only"> for {provider.label}</span>
            </label>
            <input
              id={ids.testModel}
              value={testModel}
              onChange={(event) => setTestModel(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              placeholder="model id"
              className={`${inputClassName} max-w-[260px]`}
              {...invalid("model")}
            />
            <SettingsButton type="submit" disabled={busy === "test"}>
              {busy === "test" ? "Testing…" : "Run test"}
            </SettingsButton>
            <p className="min-w-0 flex-1 text-xs text-zinc-600">
              {provider.needsKey ? `One short call, billed by ${provider.label} as usual.` : "One short call to the server."}
            </p>
          </form>
        )}

        <div id={ids.error} className="empty:hidden [&:not(:empty)]:mt-3">
          {error && <ErrorAlert message={error.message} onDismiss={() => setError(null)} />}
        </div>
        {/* Always in the page, so screen readers announce what is put in it. */}
        <p role="status" className={notice ? `mt-3 text-sm ${NOTICE_TONES[notice.tone]}` : undefined}>
          {notice?.text}
        </p>
      </div>
    </section>
  );
}

/** The row's status: whether a key is saved, the one base URL it is sent to, and when it was saved. */
function KeyStatus({ stored, defaultBaseUrl }: { stored: ProviderKeySummary | null; defaultBaseUrl: string | null }) {
  if (!stored) {
    return (
      <p className="flex items-center gap-1.5 text-xs text-zinc-600">
        <span aria-hidden="true" className="size-1.5 rounded-full bg-zinc-300" />
        No key
      </p>
    );
  }
  const hasKey = stored.last4 !== "";
  const baseUrl = stored.baseUrl ?? defaultBaseUrl;
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <p className="flex items-center gap-1.5 text-xs font-medium text-emerald-800">
        <span aria-hidden="true" className="size-1.5 rounded-full bg-emerald-500" />
        {hasKey ? `Key ending in ${stored.last4}` : "Base URL saved, no key"}
      </p>
      {baseUrl && (
        <p className="mt-0.5 text-xs text-zinc-600">
          {hasKey ? "Sent only to " : "Calls "}
          <span className="block font-mono text-[11px] leading-4 break-words text-zinc-800" title={baseUrl}>
            <BreakableUrl url={baseUrl} />
            {stored.baseUrl === null && <span className="font-sans text-xs text-zinc-500"> (default)</span>}
          </span>
        </p>
      )}
      <p className="text-xs text-zinc-500">Saved {formatSavedDate(stored.updatedAt)}</p>
    </div>
  );
}

/** A URL that wraps after its slashes and dots when the column is too narrow, not mid-word. */
function BreakableUrl({ url }: { url: string }) {
  const parts = url.split(/(?<=[/.])/);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}

const savedDateFormat = new Intl.DateTimeFormat("en", { day: "numeric", month: "short", year: "numeric" });

function formatSavedDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : savedDateFormat.format(date);
}

/** An API error as the row shows it: the server's message, without a leading "field: ". */
function toRowError(error: unknown): RowError {
  if (error instanceof ApiError) {
    const prefix = error.field ? `${error.field}: ` : "";
    const message = prefix && error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return { message, field: error.field };
  }
  return { message: error instanceof Error ? error.message : String(error), field: null };
}
