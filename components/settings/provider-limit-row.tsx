"use client";

import { useId, useState } from "react";
import { resetThrottle, saveLimit, type ProviderLimit } from "@/lib/client/limits-api";
import { useAction } from "@/lib/client/use-action";
import { inputClassName, SettingsButton } from "./settings-controls";

type ProviderLimitRowProps = {
  provider: { id: string; label: string };
  limit: ProviderLimit | null;
  /** The provider's throttled credentials: itself, or for the mock its models ("mock/flaky"). */
  throttles: ProviderLimit[];
  onSaved(): void;
};

type Field = "maxConcurrency" | "requestsPerMinute" | "tokensPerMinute";

const FIELDS: { key: Field; label: string; short: string }[] = [
  { key: "maxConcurrency", label: "Max concurrent requests", short: "Concurrent" },
  { key: "requestsPerMinute", label: "Requests per minute", short: "Requests / min" },
  { key: "tokensPerMinute", label: "Tokens per minute", short: "Tokens / min" },
];

const text = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));

/** One provider's limits: three whole numbers (empty is no limit), Save, and any throttling with a Reset for each. */
export function ProviderLimitRow({ provider, limit, throttles, onSaved }: ProviderLimitRowProps) {
  const id = useId();
  const [values, setValues] = useState<Record<Field, string>>({
    maxConcurrency: text(limit?.maxConcurrency),
    requestsPerMinute: text(limit?.requestsPerMinute),
    tokensPerMinute: text(limit?.tokensPerMinute),
  });
  const { busy, error, setError, run } = useAction();
  const [invalidField, setInvalidField] = useState<Field | null>(null);
  const [saved, setSaved] = useState(false);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setInvalidField(null);
    setSaved(false);
    const parsed = {} as Record<Field, number | null>;
    for (const { key, label } of FIELDS) {
      const raw = values[key].trim();
      if (raw === "") {
        parsed[key] = null;
        continue;
      }
      const value = Number(raw);
      if (!Number.isInteger(value) || value < 1) {
        setError(`${label}: a whole number from 1 up, or empty for no limit.`);
        setInvalidField(key);
        return;
      }
      parsed[key] = value;
    }
    await run(async () => {
      await saveLimit({ provider: provider.id, ...parsed });
      setSaved(true);
      onSaved();
    });
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-2 px-4 py-3">
      <form onSubmit={handleSubmit} className="grid grid-cols-[minmax(0,1fr)_140px_140px_140px_72px] items-end gap-3">
        <div className="min-w-0 self-center">
          <h2 id={`${id}-heading`} className="text-sm font-medium text-zinc-900">
            {provider.label}
          </h2>
          {saved ? <p className="text-xs text-emerald-800">Saved</p> : <p className="text-xs text-zinc-600">{provider.id}</p>}
        </div>
        {FIELDS.map(({ key, label, short }) => (
          <div key={key} className="flex flex-col gap-1">
            <label htmlFor={`${id}-${key}`} className="text-xs text-zinc-600">
              <span aria-hidden="true">{short}</span>
              <span className="sr-only">{`${label} for ${provider.label}`}</span>
            </label>
            <input
              id={`${id}-${key}`}
              inputMode="numeric"
              autoComplete="off"
              placeholder="no limit"
              value={values[key]}
              onChange={(event) => setValues((current) => ({ ...current, [key]: event.target.value }))}
              aria-invalid={invalidField === key || undefined}
              className={`${inputClassName} tabular-nums`}
            />
          </div>
        ))}
        <SettingsButton type="submit" disabled={busy} aria-label={`Save limits for ${provider.label}`}>
          Save
        </SettingsButton>
      </form>
      {throttles.length > 0 && (
        <ul aria-label={`Throttled after rate limits: ${provider.label}`} className="flex flex-col gap-1.5">
          {throttles.map((throttle) => (
            <ThrottleItem key={throttle.provider} throttle={throttle} onReset={onSaved} />
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </section>
  );
}

/** One throttled credential: how far Parallaxr lowered its concurrency, and Reset to lift it now. */
function ThrottleItem({ throttle, onReset }: { throttle: ProviderLimit; onReset(): void }) {
  const { busy, error, run } = useAction();
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md bg-amber-50 px-3 py-1.5 text-xs text-amber-900">
      <span className="min-w-0 flex-1">
        <span className="font-mono font-medium">{throttle.provider}</span>: throttled to {throttle.adaptiveLimit} concurrent{" "}
        {throttle.adaptiveLimit === 1 ? "request" : "requests"} after rate limits
      </span>
      <SettingsButton
        disabled={busy}
        aria-label={`Reset the throttle of ${throttle.provider}`}
        className="h-7"
        onClick={() =>
          void run(async () => {
            await resetThrottle({ credential: throttle.provider });
            onReset();
          })
        }
      >
        Reset
      </SettingsButton>
      {error && (
        <p role="alert" className="basis-full text-red-700">
          {error}
        </p>
      )}
    </li>
  );
}
