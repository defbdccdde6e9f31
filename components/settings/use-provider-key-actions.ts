"use client";

import { useState, type RefObject } from "react";
import { ApiError } from "@/lib/client/api";
import { formatLatency } from "@/lib/client/format-metrics";
import { deleteKey, saveKey, testKey, type KeyProvider, type ProviderKeySummary } from "@/lib/client/keys-api";
import { providerKeyHints } from "./provider-key-hints";

/** An error in a key row, and the field (apiKey, baseUrl, model) it belongs to, if any. */
export type RowError = { message: string; field: string | null };

/** The line under a key row that says how Save, Remove or Test went. */
export type KeyNotice = { tone: "ok" | "error" | "pending"; text: string };

type ProviderKeyActionsOptions = {
  provider: KeyProvider;
  stored: ProviderKeySummary | null;
  onStoredChange(summary: ProviderKeySummary | null): void;
  /** The write-only key input: read at Save and emptied once the server has the key. */
  keyInput: RefObject<HTMLInputElement | null>;
};

/**
 * Save, Remove and Test of one provider's key, and what the row shows about them. One action at
 * a time: the row's buttons share one busy state, so a Test cannot race a Save of a new key.
 */
export function useProviderKeyActions({ provider, stored, onStoredChange, keyInput }: ProviderKeyActionsOptions) {
  const hints = providerKeyHints(provider.id);
  const takesBaseUrl = hints.baseUrlPlaceholder !== undefined;
  const keyOptional = !provider.needsKey;
  const [baseUrl, setBaseUrl] = useState(stored?.baseUrl ?? "");
  const [busy, setBusy] = useState<"save" | "remove" | "test" | null>(null);
  const [error, setError] = useState<RowError | null>(null);
  const [notice, setNotice] = useState<KeyNotice | null>(null);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const [testModel, setTestModel] = useState(hints.testModel);

  function startAction() {
    setError(null);
    setNotice(null);
  }

  async function save(event: React.FormEvent<HTMLFormElement>) {
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

  async function remove() {
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

  async function test(event: React.FormEvent<HTMLFormElement>) {
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

  return {
    busy,
    error,
    dismissError: () => setError(null),
    notice,
    baseUrl,
    setBaseUrl,
    confirmingRemove,
    setConfirmingRemove,
    testModel,
    setTestModel,
    save,
    remove,
    test,
  };
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
