import type { ReactNode, RefObject } from "react";
import type { KeyProvider, ProviderKeySummary } from "@/lib/client/keys-api";
import { providerKeyHints } from "./provider-key-hints";
import { inputClassName } from "./settings-controls";

type ProviderKeyFormProps = {
  provider: KeyProvider;
  stored: ProviderKeySummary | null;
  ids: { key: string; baseUrl: string };
  /** The key input is uncontrolled: the key is never held in React state, so never rendered back. */
  keyInput: RefObject<HTMLInputElement | null>;
  baseUrl: string;
  onBaseUrlChange(value: string): void;
  /** The aria attributes that mark a field invalid and point at the row's error, or none. */
  invalid(field: string): { "aria-invalid"?: true; "aria-describedby"?: string };
  onSubmit(event: React.FormEvent<HTMLFormElement>): void;
  /** The row's buttons: Save, Test and Remove. */
  children: ReactNode;
};

/** A key row's Save form: the write-only key input, a base URL for the providers that take one, and the buttons. */
export function ProviderKeyForm({
  provider,
  stored,
  ids,
  keyInput,
  baseUrl,
  onBaseUrlChange,
  invalid,
  onSubmit,
  children,
}: ProviderKeyFormProps) {
  const hints = providerKeyHints(provider.id);
  const takesBaseUrl = hints.baseUrlPlaceholder !== undefined;
  return (
    <form onSubmit={onSubmit} className="flex items-end gap-3" noValidate>
      <div className={`grid min-w-0 flex-1 gap-3 ${takesBaseUrl ? "grid-cols-2" : "grid-cols-1"}`}>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={ids.key} className="text-xs font-medium text-zinc-600">
            API key<span className="sr-only"> for {provider.label}</span>
            {!provider.needsKey && <span className="font-normal text-zinc-500"> (optional)</span>}
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
              onChange={(event) => onBaseUrlChange(event.target.value)}
              placeholder={hints.baseUrlPlaceholder}
              className={inputClassName}
              {...invalid("baseUrl")}
            />
          </div>
        )}
      </div>
      <div className="flex w-[214px] shrink-0 items-center gap-2">{children}</div>
    </form>
  );
}
