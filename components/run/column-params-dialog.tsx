"use client";

import { useId, useState } from "react";
import type { ColumnParams } from "@/lib/client/draft-store";
import { inputClassName, SettingsButton } from "@/components/settings/settings-controls";
import { DialogDescription, DialogShell, DialogTitle } from "@/components/ui/dialog-shell";

type ColumnParamsDialogProps = {
  open: boolean;
  columnName: string;
  params: ColumnParams;
  /** Null while the parameters may change; else why not (shown, and the fields are read-only). */
  disabledReason: string | null;
  onClose(): void;
  onSave(params: ColumnParams): void;
};

type Fields = { temperature: string; maxTokens: string; topP: string; stopSequences: string; system: string };

function toFields(params: ColumnParams): Fields {
  return {
    temperature: params.temperature?.toString() ?? "",
    maxTokens: params.maxTokens?.toString() ?? "",
    topP: params.topP?.toString() ?? "",
    stopSequences: (params.stopSequences ?? []).join("\n"),
    system: params.system ?? "",
  };
}

type FieldErrors = Partial<Record<keyof Fields, string>>;

/** Reads the fields into params; empty fields are left out, so the provider's default applies. */
function readFields(fields: Fields): { params: ColumnParams; errors: FieldErrors } {
  const params: ColumnParams = {};
  const errors: FieldErrors = {};
  const number = (key: "temperature" | "maxTokens" | "topP", min: number, max: number, integer: boolean) => {
    const text = fields[key].trim();
    if (text === "") return;
    const value = Number(text);
    if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      errors[key] = integer ? `A whole number from ${min} to ${max}.` : `A number from ${min} to ${max}.`;
      return;
    }
    params[key] = value;
  };
  number("temperature", 0, 2, false);
  number("maxTokens", 1, 1_000_000, true);
  number("topP", 0, 1, false);
  const stops = fields.stopSequences.split("\n").filter((line) => line !== "");
  if (stops.length > 0) params.stopSequences = stops;
  if (fields.system.trim() !== "") params.system = fields.system;
  return { params, errors };
}

/** "temperature 0.2, max tokens 64": the parameters set, for the header's tooltip; "" when none. */
export function describeParams(params: ColumnParams): string {
  const parts: string[] = [];
  if (params.temperature !== undefined) parts.push(`temperature ${params.temperature}`);
  if (params.maxTokens !== undefined) parts.push(`max tokens ${params.maxTokens}`);
  if (params.topP !== undefined) parts.push(`top-p ${params.topP}`);
  if (params.stopSequences?.length) parts.push(`${params.stopSequences.length} stop sequence(s)`);
  if (params.system) parts.push("system prompt");
  return parts.join(", ");
}

/** The model parameters of one column (temperature, max tokens, top-p, stops, system prompt). */
export function ColumnParamsDialog({ open, onClose, ...formProps }: ColumnParamsDialogProps) {
  return (
    <DialogShell
      open={open}
      onClose={onClose}
      described
      closeOnOutsideClick={false}
      className="max-h-[calc(100vh-38px)] w-[min(480px,calc(100vw-32px))] overflow-auto"
    >
      {/* Mounted with each opening, so its fields start from the column's params of that moment. */}
      <ParamsForm onClose={onClose} {...formProps} />
    </DialogShell>
  );
}

function ParamsForm({ columnName, params, disabledReason, onClose, onSave }: Omit<ColumnParamsDialogProps, "open">) {
  const id = useId();
  // params are read when the dialog opens, not while the person types.
  const [fields, setFields] = useState<Fields>(() => toFields(params));
  const [errors, setErrors] = useState<FieldErrors>({});
  const readOnly = disabledReason !== null;

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (readOnly) return onClose();
    const result = readFields(fields);
    setErrors(result.errors);
    if (Object.keys(result.errors).length === 0) onSave(result.params);
  }

  const set = (key: keyof Fields) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setFields((current) => ({ ...current, [key]: event.target.value }));

  const numberField = (key: "temperature" | "maxTokens" | "topP", label: string, placeholder: string) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${key}`} className="text-xs font-medium text-zinc-700">
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        inputMode="decimal"
        value={fields[key]}
        onChange={set(key)}
        placeholder={placeholder}
        readOnly={readOnly}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${id}-${key}-error` : undefined}
        className={`${inputClassName} tabular-nums`}
      />
      {errors[key] && (
        <p id={`${id}-${key}-error`} role="alert" className="text-xs text-red-700">
          {errors[key]}
        </p>
      )}
    </div>
  );

  return (
    <form onSubmit={handleSubmit} className="flex flex-col gap-4 p-5">
      <div className="flex flex-col gap-0.5">
        <DialogTitle className="text-base font-semibold">Parameters · {columnName}</DialogTitle>
        <DialogDescription className="text-xs text-zinc-600">
          Empty fields use the provider&apos;s default. A provider that ignores one says so on each cell.
        </DialogDescription>
      </div>
      {disabledReason && <p className="rounded-lg bg-zinc-100 px-3 py-2 text-xs text-zinc-700">{disabledReason}</p>}
      <div className="grid grid-cols-3 gap-3">
        {numberField("temperature", "Temperature", "0 – 2")}
        {numberField("maxTokens", "Max tokens", "default")}
        {numberField("topP", "Top-p", "0 – 1")}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-stops`} className="text-xs font-medium text-zinc-700">
          Stop sequences <span className="font-normal text-zinc-500">(one per line)</span>
        </label>
        <textarea
          id={`${id}-stops`}
          rows={2}
          value={fields.stopSequences}
          onChange={set("stopSequences")}
          readOnly={readOnly}
          className={`${inputClassName} h-auto py-1.5 font-mono text-[13px]`}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-system`} className="text-xs font-medium text-zinc-700">
          System prompt
        </label>
        <textarea
          id={`${id}-system`}
          rows={3}
          value={fields.system}
          onChange={set("system")}
          readOnly={readOnly}
          className={`${inputClassName} h-auto py-1.5`}
        />
      </div>
      <div className="flex justify-end gap-2">
        {!readOnly && (
          <SettingsButton
            onClick={() => {
              setFields(toFields({}));
              setErrors({});
            }}
            className="mr-auto"
          >
            Clear all
          </SettingsButton>
        )}
        <SettingsButton onClick={onClose}>{readOnly ? "Close" : "Cancel"}</SettingsButton>
        {!readOnly && (
          <SettingsButton type="submit" tone="primary">
            Save parameters
          </SettingsButton>
        )}
      </div>
    </form>
  );
}
