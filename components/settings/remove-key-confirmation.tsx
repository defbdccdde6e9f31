import type { Ref } from "react";
import type { KeyProvider, ProviderKeySummary } from "@/lib/client/keys-api";
import { SettingsButton } from "./settings-controls";

type RemoveKeyConfirmationProps = {
  provider: KeyProvider;
  stored: ProviderKeySummary;
  busy: boolean;
  onRemove(): void;
  onCancel(): void;
  /** Focused when the question opens: the safe answer is the one under the keyboard. */
  cancelButton: Ref<HTMLButtonElement>;
};

/** The question Remove asks in a key row before the key or base URL is deleted. */
export function RemoveKeyConfirmation({ provider, stored, busy, onRemove, onCancel, cancelButton }: RemoveKeyConfirmationProps) {
  return (
    <div className="mt-3 flex items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
      <p className="min-w-0 flex-1">
        {stored.last4
          ? `Remove the ${provider.label} key ending in ${stored.last4}? Runs can no longer call ${provider.label} with it.`
          : `Remove the saved ${provider.label} base URL? Runs then use the default one.`}
      </p>
      <SettingsButton tone="danger-solid" onClick={onRemove} disabled={busy}>
        {busy ? "Removing…" : "Remove key"}
      </SettingsButton>
      <SettingsButton ref={cancelButton} onClick={onCancel}>
        Cancel
      </SettingsButton>
    </div>
  );
}
