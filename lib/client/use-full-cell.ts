// The whole output of a cell whose start is all the page holds (runs are read with PREVIEW_CHARS).
import { useEffect, useState } from "react";
import { getCell } from "./cells-api";
import type { Cell } from "./run-types";

type Loaded = { key: string; output: string | null; outputParsed: string | null } | { key: string; error: string };

/**
 * The cell with its whole output: fetched once per version of the cell (its seq) when the output
 * was cut; the cell as given otherwise. Everything but the output keeps following the store.
 */
export function useFullCell(cell: Cell, runId: string | null): { cell: Cell; loading: boolean; error: string | null } {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const key = `${cell.id}@${cell.seq}`;
  const needed = cell.outputTruncated && runId !== null;

  useEffect(() => {
    if (!needed || runId === null) return;
    let cancelled = false;
    getCell({ runId, cellId: cell.id }).then(
      (full) => {
        if (!cancelled) setLoaded({ key, output: full.output, outputParsed: full.outputParsed });
      },
      (reason: unknown) => {
        if (!cancelled) setLoaded({ key, error: reason instanceof Error ? reason.message : String(reason) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [needed, runId, cell.id, key]);

  if (!needed) return { cell, loading: false, error: null };
  if (loaded?.key !== key) return { cell, loading: true, error: null };
  if ("error" in loaded) return { cell, loading: false, error: loaded.error };
  return {
    cell: { ...cell, output: loaded.output, outputParsed: loaded.outputParsed, outputTruncated: false },
    loading: false,
    error: null,
  };
}
