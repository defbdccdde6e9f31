import { Fragment } from "react";
import type { ProviderKeySummary } from "@/lib/client/keys-api";

type ProviderKeyStatusProps = { stored: ProviderKeySummary | null; defaultBaseUrl: string | null };

/** A key row's status: whether a key is saved, the one base URL it is sent to, and when it was saved. */
export function ProviderKeyStatus({ stored, defaultBaseUrl }: ProviderKeyStatusProps) {
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
