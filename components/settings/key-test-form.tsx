import type { KeyProvider } from "@/lib/client/keys-api";
import { inputClassName, SettingsButton } from "./settings-controls";

type KeyTestFormProps = {
  provider: KeyProvider;
  ids: { test: string; testModel: string };
  model: string;
  onModelChange(model: string): void;
  busy: boolean;
  /** The aria attributes that mark the model field invalid, or none. */
  invalid: { "aria-invalid"?: true; "aria-describedby"?: string };
  onSubmit(event: React.FormEvent<HTMLFormElement>): void;
};

/** The form Test opens in a key row: a model id and Run test, one short call with the saved key. */
export function KeyTestForm({ provider, ids, model, onModelChange, busy, invalid, onSubmit }: KeyTestFormProps) {
  return (
    <form
      id={ids.test}
      onSubmit={onSubmit}
      noValidate
      className="mt-3 flex items-center gap-3 rounded-lg border border-zinc-200 bg-canvas px-3 py-2"
    >
      <label htmlFor={ids.testModel} className="shrink-0 text-xs font-medium text-zinc-600">
        Test with model<span className="sr-only"> for {provider.label}</span>
      </label>
      <input
        id={ids.testModel}
        value={model}
        onChange={(event) => onModelChange(event.target.value)}
        autoComplete="off"
        spellCheck={false}
        placeholder="model id"
        className={`${inputClassName} max-w-[260px]`}
        {...invalid}
      />
      <SettingsButton type="submit" disabled={busy}>
        {busy ? "Testing…" : "Run test"}
      </SettingsButton>
      <p className="min-w-0 flex-1 text-xs text-zinc-600">
        {provider.needsKey ? `One short call, billed by ${provider.label} as usual.` : "One short call to the server."}
      </p>
    </form>
  );
}
