"use client";

import { useEffect, useId, useRef, useState } from "react";
import { formatPricePerMillion } from "@/lib/client/format-money";
import { deletePrice, savePrice, type UserPrice } from "@/lib/client/prices-api";
import { useAction } from "@/lib/client/use-action";
import { priceText, readPriceFields } from "./price-input";
import { inputClassName, SettingsButton } from "./settings-controls";

type PriceRowProps = {
  price: UserPrice;
  /** Opens the row in edit mode with the input price focused (after Override). */
  startEditing: boolean;
  onChanged(): void;
};

/** One of the person's prices: shown plainly, edited inline, or removed. */
export function PriceRow({ price, startEditing, onChanged }: PriceRowProps) {
  const id = useId();
  const name = `${price.provider} / ${price.model === "*" ? "every model" : price.model}`;
  const [editing, setEditing] = useState(startEditing);
  const [input, setInput] = useState(priceText(price.inputPerMTok));
  const [output, setOutput] = useState(priceText(price.outputPerMTok));
  const { busy, error, setError, run } = useAction();
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (editing) inputRef.current?.focus();
  }, [editing]);

  async function handleSave(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    const fields = readPriceFields(input, output);
    if (!fields.ok) {
      setError(fields.message);
      return;
    }
    const { inputPerMTok, outputPerMTok } = fields;
    await run(async () => {
      await savePrice({ provider: price.provider, model: price.model, inputPerMTok, outputPerMTok });
      setEditing(false);
      onChanged();
    });
  }

  async function handleRemove() {
    await run(
      async () => {
        await deletePrice({ provider: price.provider, model: price.model });
        onChanged();
      },
      { keepBusyOnSuccess: true },
    );
  }

  return (
    <li aria-label={name} className="flex flex-col gap-2 px-4 py-3">
      <form onSubmit={handleSave} className="grid grid-cols-[minmax(0,1fr)_150px_150px_176px] items-center gap-3">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium text-zinc-900">{price.model === "*" ? "Every model" : price.model}</p>
          <p className="text-xs text-zinc-600">{price.provider}</p>
        </div>
        {editing ? (
          <>
            <PriceInput
              id={`${id}-in`}
              label={`Input price for ${name}`}
              value={input}
              onChange={setInput}
              inputRef={inputRef}
              invalid={!!error}
            />
            <PriceInput id={`${id}-out`} label={`Output price for ${name}`} value={output} onChange={setOutput} invalid={!!error} />
            <div className="flex justify-end gap-2">
              <SettingsButton
                onClick={() => {
                  setEditing(false);
                  setError(null);
                  setInput(priceText(price.inputPerMTok));
                  setOutput(priceText(price.outputPerMTok));
                }}
              >
                Cancel
              </SettingsButton>
              <SettingsButton type="submit" tone="primary" disabled={busy}>
                Save
              </SettingsButton>
            </div>
          </>
        ) : (
          <>
            <p className="text-sm text-zinc-800 tabular-nums">
              <span className="sr-only">Input: </span>
              {formatPricePerMillion(price.inputPerMTok)}
            </p>
            <p className="text-sm text-zinc-800 tabular-nums">
              <span className="sr-only">Output: </span>
              {formatPricePerMillion(price.outputPerMTok)}
            </p>
            <div className="flex justify-end gap-2">
              <SettingsButton onClick={() => setEditing(true)} aria-label={`Edit ${name}`}>
                Edit
              </SettingsButton>
              <SettingsButton tone="danger" onClick={() => void handleRemove()} disabled={busy} aria-label={`Remove ${name}`}>
                Remove
              </SettingsButton>
            </div>
          </>
        )}
      </form>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </li>
  );
}

type PriceInputProps = {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  invalid?: boolean;
  inputRef?: React.Ref<HTMLInputElement>;
};

/** A "$ [0.15] / 1M" input; its label is for screen readers, the column heading shows it. */
export function PriceInput({ id, label, value, onChange, invalid, inputRef }: PriceInputProps) {
  return (
    <div className="relative">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <span aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-sm text-zinc-500">
        $
      </span>
      <input
        id={id}
        ref={inputRef}
        inputMode="decimal"
        autoComplete="off"
        placeholder="unknown"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid || undefined}
        className={`${inputClassName} pr-10 pl-5 tabular-nums`}
      />
      <span aria-hidden="true" className="pointer-events-none absolute top-1/2 right-2.5 -translate-y-1/2 text-xs text-zinc-500">
        / 1M
      </span>
    </div>
  );
}
