"use client";

import { useEffect, useId, useMemo, useState } from "react";
import { DialogShell, DialogTitle } from "@/components/ui/dialog-shell";
import { CloseIcon } from "@/components/ui/icons";
import { batchFileUrl, getReceiptText } from "./batches-api";
import {
  filterGallery,
  galleryFacets,
  galleryItems,
  paramsBesideModel,
  type GalleryItem,
  type GalleryJob,
  type GallerySelection,
} from "./gallery-filter";

/** Most images drawn at once; the rest come a page at a time, so a 5,000-image run opens quickly. */
const PAGE = 60;

const facetLabel = (key: string) => (key === "prompt" ? "Prompt" : key.replace("provider_options.", ""));

/**
 * The run's images with the parameters of the job that made each, filtered by provider, model and
 * any parameter that varies; one opens full size in a dialog with its receipt as text.
 */
export function BatchGallery({ batchId, jobs }: { batchId: string; jobs: readonly GalleryJob[] }) {
  const items = useMemo(() => galleryItems(jobs), [jobs]);
  const facets = useMemo(() => galleryFacets(items), [items]);
  const [selection, setSelection] = useState<GallerySelection>({});
  const [shown, setShown] = useState(PAGE);
  const [opened, setOpened] = useState<GalleryItem | null>(null);
  const visible = useMemo(() => filterGallery(items, selection), [items, selection]);
  const filterId = useId();

  return (
    <section aria-labelledby="batch-gallery-heading" className="flex flex-col gap-3 rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="batch-gallery-heading" className="text-sm font-semibold text-zinc-900">
          Images
        </h2>
        <p aria-live="polite" className="text-sm text-zinc-700">
          {visible.length === items.length
            ? `${items.length} ${items.length === 1 ? "image" : "images"}`
            : `${visible.length} of ${items.length} images`}
        </p>
      </div>
      {items.length === 0 ? (
        <p className="text-sm text-zinc-600">No images yet.</p>
      ) : (
        <>
          <fieldset className="flex flex-wrap items-end gap-3">
            <legend className="sr-only">Filter the images</legend>
            {facets.map((facet) => (
              <div key={facet.key} className="flex flex-col gap-0.5">
                <label htmlFor={`${filterId}-${facet.key}`} className="text-xs font-medium text-zinc-700">
                  {facetLabel(facet.key)}
                </label>
                <select
                  id={`${filterId}-${facet.key}`}
                  value={selection[facet.key] ?? ""}
                  onChange={(event) => {
                    setSelection({ ...selection, [facet.key]: event.target.value });
                    setShown(PAGE);
                  }}
                  className="max-w-56 rounded-md border border-zinc-300 px-2 py-1 text-sm font-normal text-zinc-900"
                >
                  <option value="">All ({facet.values.length})</option>
                  {facet.values.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              </div>
            ))}
            {Object.values(selection).some((value) => value !== "") && (
              <button
                type="button"
                onClick={() => setSelection({})}
                className="rounded-md px-2 py-1 text-sm font-medium text-accent-strong hover:bg-accent-soft"
              >
                Clear filters
              </button>
            )}
          </fieldset>
          <ul aria-label="Images" className="grid grid-cols-[repeat(auto-fill,minmax(200px,1fr))] gap-3">
            {visible.slice(0, shown).map((item) => (
              <li key={item.file} className="flex min-w-0 flex-col overflow-hidden rounded-md border border-zinc-200 bg-zinc-50">
                <button
                  type="button"
                  onClick={() => setOpened(item)}
                  aria-label={`Open ${item.file}: ${item.prompt}`}
                  className="block aspect-square w-full bg-white focus-visible:outline-offset-[-3px]"
                >
                  <img src={batchFileUrl(batchId, item.file)} alt={item.prompt} loading="lazy" className="h-full w-full object-contain" />
                </button>
                <div className="flex min-w-0 flex-col gap-0.5 px-2 py-1.5 text-xs">
                  <p className="truncate font-medium text-zinc-900" title={`${item.params.provider} / ${item.params.model}`}>
                    {item.params.provider} / {item.params.model}
                  </p>
                  <p className="line-clamp-2 text-zinc-700" title={item.prompt}>
                    <span className="font-mono text-zinc-600">{item.promptId}</span> {item.prompt}
                  </p>
                  <p
                    className="truncate font-mono text-zinc-600"
                    title={paramsBesideModel(item.params)
                      .map(([k, v]) => `${k}=${v}`)
                      .join(" ")}
                  >
                    {paramsBesideModel(item.params)
                      .map(([key, value]) => `${key.replace("provider_options.", "")}=${value}`)
                      .join(" ")}
                  </p>
                </div>
              </li>
            ))}
          </ul>
          {visible.length > shown && (
            <button
              type="button"
              onClick={() => setShown(shown + PAGE)}
              className="self-start rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
            >
              Show {Math.min(PAGE, visible.length - shown)} more
            </button>
          )}
        </>
      )}
      <ImageDialog batchId={batchId} item={opened} onClose={() => setOpened(null)} />
    </section>
  );
}

/** One image full size, its job's parameters and its receipt as text (never as HTML). */
function ImageDialog({ batchId, item, onClose }: { batchId: string; item: GalleryItem | null; onClose(): void }) {
  const [receipt, setReceipt] = useState<{ file: string; text: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setReceipt(null);
    setProblem(null);
    if (!item?.receipt) return;
    let stopped = false;
    const file = item.receipt;
    getReceiptText(batchId, file).then(
      (text) => !stopped && setReceipt({ file, text }),
      (caught: Error) => !stopped && setProblem(caught.message),
    );
    return () => {
      stopped = true;
    };
  }, [batchId, item]);

  return (
    <DialogShell
      open={item !== null}
      onClose={onClose}
      className="flex max-h-[92vh] w-[min(1200px,94vw)] flex-col"
      testId="batch-image-dialog"
    >
      {item && (
        <>
          <div className="flex items-start gap-3 border-b border-zinc-200 px-5 py-3">
            <div className="min-w-0 flex-1">
              <DialogTitle className="truncate font-mono text-base font-semibold text-zinc-900">{item.file}</DialogTitle>
              <p className="text-sm text-zinc-600">
                {item.jobId} · {item.params.provider} / {item.params.model}
              </p>
            </div>
            <a
              href={batchFileUrl(batchId, item.file)}
              download={item.file}
              className="rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-xs font-medium text-zinc-800 hover:bg-zinc-50"
            >
              Download image
            </a>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="rounded-md p-1 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
            >
              <CloseIcon aria-hidden="true" className="size-4" />
            </button>
          </div>
          <div className="grid min-h-0 gap-4 overflow-y-auto px-5 py-4 lg:grid-cols-[minmax(0,3fr)_minmax(280px,2fr)]">
            <img
              src={batchFileUrl(batchId, item.file)}
              alt={item.prompt}
              className="mx-auto max-h-[70vh] w-full border border-zinc-200 bg-zinc-50 object-contain [image-rendering:pixelated]"
            />
            <div className="flex min-w-0 flex-col gap-3">
              <section className="flex flex-col gap-1">
                <h3 className="text-sm font-semibold text-zinc-900">Prompt</h3>
                <p className="whitespace-pre-wrap break-words text-sm text-zinc-800">
                  <span className="font-mono text-xs text-zinc-600">{item.promptId}</span> {item.prompt}
                </p>
              </section>
              <section className="flex flex-col gap-1">
                <h3 className="text-sm font-semibold text-zinc-900">Parameters</h3>
                <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-sm">
                  {Object.entries(item.params).map(([key, value]) => (
                    <div key={key} className="contents">
                      <dt className="text-zinc-600">{key}</dt>
                      <dd className="break-all font-mono text-[13px] text-zinc-900">{value}</dd>
                    </div>
                  ))}
                </dl>
              </section>
              <section className="flex min-h-0 flex-col gap-1">
                <h3 className="text-sm font-semibold text-zinc-900">Receipt{item.receipt ? ` (${item.receipt})` : ""}</h3>
                {!item.receipt ? (
                  <p className="text-sm text-zinc-600">This image has no receipt.</p>
                ) : problem ? (
                  <p role="alert" className="text-sm text-red-800">
                    {problem}
                  </p>
                ) : receipt?.file !== item.receipt ? (
                  <p className="text-sm text-zinc-600">Loading the receipt…</p>
                ) : (
                  <pre
                    aria-label="Receipt"
                    tabIndex={0}
                    className="max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-[12px] text-zinc-900"
                  >
                    {receipt.text}
                  </pre>
                )}
              </section>
            </div>
          </div>
        </>
      )}
    </DialogShell>
  );
}
