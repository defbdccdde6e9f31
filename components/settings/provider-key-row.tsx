"use client";

import { useId, useRef, useState } from "react";
import type { KeyProvider, ProviderKeySummary } from "@/lib/client/keys-api";
import { ErrorAlert } from "@/components/ui/error-alert";
import { KeyTestForm } from "./key-test-form";
import { ProviderKeyForm } from "./provider-key-form";
import { providerKeyHints } from "./provider-key-hints";
import { ProviderKeyStatus } from "./provider-key-status";
import { RemoveKeyConfirmation } from "./remove-key-confirmation";
import { SettingsButton } from "./settings-controls";
import { useProviderKeyActions, type KeyNotice } from "./use-provider-key-actions";

type ProviderKeyRowProps = {
  provider: KeyProvider;
  stored: ProviderKeySummary | null;
  onStoredChange(summary: ProviderKeySummary | null): void;
};

const NOTICE_TONES: Record<KeyNotice["tone"], string> = {
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
  const [testOpen, setTestOpen] = useState(false);
  const actions = useProviderKeyActions({ provider, stored, onStoredChange, keyInput });
  const { busy, error, notice, confirmingRemove, setConfirmingRemove } = actions;

  const invalid = (field: string) => (error?.field === field ? { "aria-invalid": true as const, "aria-describedby": ids.error } : {});

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
        <ProviderKeyStatus stored={stored} defaultBaseUrl={provider.defaultBaseUrl ?? hints.baseUrlPlaceholder ?? null} />
      </div>

      <div className="flex min-w-0 flex-col">
        <ProviderKeyForm
          provider={provider}
          stored={stored}
          ids={ids}
          keyInput={keyInput}
          baseUrl={actions.baseUrl}
          onBaseUrlChange={actions.setBaseUrl}
          invalid={invalid}
          onSubmit={(event) => void actions.save(event)}
        >
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
        </ProviderKeyForm>

        {confirmingRemove && stored && (
          <RemoveKeyConfirmation
            provider={provider}
            stored={stored}
            busy={busy === "remove"}
            onRemove={() => void actions.remove()}
            onCancel={() => {
              setConfirmingRemove(false);
              requestAnimationFrame(() => removeButton.current?.focus());
            }}
            cancelButton={cancelRemoveButton}
          />
        )}

        {testOpen && (
          <KeyTestForm
            provider={provider}
            ids={ids}
            model={actions.testModel}
            onModelChange={actions.setTestModel}
            busy={busy === "test"}
            invalid={invalid("model")}
            onSubmit={(event) => void actions.test(event)}
          />
        )}

        <div id={ids.error} className="empty:hidden [&:not(:empty)]:mt-3">
          {error && <ErrorAlert message={error.message} onDismiss={actions.dismissError} />}
        </div>
        {/* Always in the page, so screen readers announce what is put in it. */}
        <p role="status" className={notice ? `mt-3 text-sm ${NOTICE_TONES[notice.tone]}` : undefined}>
          {notice?.text}
        </p>
      </div>
    </section>
  );
}
