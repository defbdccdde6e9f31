"use client";

import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useState } from "react";
import { getDataset, listDatasets } from "@/lib/client/datasets-api";
import { useDraftStore } from "@/lib/client/draft-store";
import { showToast } from "@/lib/client/toast-store";
import type { DatasetItem } from "@/lib/client/workbench-types";
import { pillBaseClassName } from "@/components/toolbar/pill-class-name";
import { ChevronDownIcon } from "@/components/ui/icons";
import { formatRowCount } from "./dataset-preview-caption";
import { ManageDatasetsDialog } from "./manage-datasets-dialog";

/** Rows fetched with a chosen dataset, for the grid's preview before a run (as on first load). */
const PREVIEW_ROWS = 50;

const ITEM =
  "flex cursor-pointer items-baseline gap-3 rounded-md px-2.5 py-1.5 text-zinc-900 outline-none data-[disabled]:cursor-default data-[disabled]:text-zinc-500 data-[highlighted]:bg-accent-soft data-[highlighted]:text-accent-strong";

/**
 * The Upload pill's menu: the stored datasets, newest first, to choose the active one from, and
 * "Manage datasets…" to rename or delete them. The list is read each time the menu opens.
 */
export function DatasetMenu({ disabled = false }: { disabled?: boolean }) {
  const active = useDraftStore((state) => state.dataset);
  const setDataset = useDraftStore((state) => state.setDataset);
  const [datasets, setDatasets] = useState<DatasetItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [manageOpen, setManageOpen] = useState(false);

  function load() {
    setError(null);
    listDatasets().then(setDatasets, (reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason)));
  }

  async function choose(id: string) {
    if (id === active?.id) return;
    try {
      const dataset = await getDataset(id, { limit: PREVIEW_ROWS });
      setDataset({ id: dataset.id, name: dataset.name, headers: dataset.headers, rowCount: dataset.rowCount, rows: dataset.rows });
    } catch (reason) {
      showToast({ kind: "error", message: `The dataset did not load: ${reason instanceof Error ? reason.message : String(reason)}` });
    }
  }

  return (
    <>
      <DropdownMenu.Root modal={false} onOpenChange={(open) => open && load()}>
        <DropdownMenu.Trigger
          data-testid="dataset-menu-button"
          aria-label="Stored datasets"
          title="Stored datasets: choose, rename, delete"
          disabled={disabled}
          className={`${pillBaseClassName} rounded-l-none px-2 enabled:cursor-pointer enabled:hover:border-accent enabled:hover:bg-white disabled:cursor-not-allowed disabled:opacity-60`}
        >
          <ChevronDownIcon aria-hidden="true" className="size-3.5" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            collisionPadding={8}
            className="z-50 max-h-[min(420px,var(--radix-dropdown-menu-content-available-height))] w-[320px] overflow-y-auto rounded-lg border border-zinc-200 bg-white p-1 text-sm shadow-lg"
          >
            <DropdownMenu.Label className="px-2.5 pt-1.5 pb-1 text-[11px] font-semibold tracking-wide text-zinc-600 uppercase">
              Stored datasets
            </DropdownMenu.Label>
            {error ? (
              <p role="alert" className="px-2.5 py-1.5 text-red-700">
                {error}
              </p>
            ) : datasets === null ? (
              <DropdownMenu.Item disabled className={ITEM}>
                Loading…
              </DropdownMenu.Item>
            ) : datasets.length === 0 ? (
              <DropdownMenu.Item disabled className={ITEM}>
                None yet: upload a CSV or JSON file
              </DropdownMenu.Item>
            ) : (
              <DropdownMenu.RadioGroup value={active?.id ?? ""} onValueChange={(id) => void choose(id)}>
                {datasets.map((dataset) => (
                  <DropdownMenu.RadioItem key={dataset.id} value={dataset.id} className={`${ITEM} pl-7 relative`}>
                    <DropdownMenu.ItemIndicator className="absolute left-2.5 text-accent-strong">
                      <span aria-hidden="true">✓</span>
                    </DropdownMenu.ItemIndicator>
                    <span className="min-w-0 flex-1 truncate font-medium" title={dataset.name}>
                      {dataset.name}
                    </span>
                    <span className="shrink-0 text-xs text-zinc-600 tabular-nums">{formatRowCount(dataset.rowCount)}</span>
                  </DropdownMenu.RadioItem>
                ))}
              </DropdownMenu.RadioGroup>
            )}
            <DropdownMenu.Separator className="my-1 h-px bg-zinc-200" />
            {active && (
              <DropdownMenu.Item className={ITEM} onSelect={() => setDataset(null)}>
                Detach {active.name}
              </DropdownMenu.Item>
            )}
            <DropdownMenu.Item className={ITEM} onSelect={() => setManageOpen(true)}>
              Manage datasets…
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <ManageDatasetsDialog open={manageOpen} onClose={() => setManageOpen(false)} />
    </>
  );
}
