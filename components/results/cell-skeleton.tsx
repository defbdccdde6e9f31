/**
 * The loading state of a queued or running cell: three grey bars, pulsing while the call is in
 * flight. A queued cell's bars stay still: it says which cells are being asked now, and a page
 * of waiting cells does not redraw every frame (on a machine without a GPU, dozens of pulsing
 * cells took a core from the page and from a server on the same machine).
 */
export function CellSkeleton({ pulsing }: { pulsing: boolean }) {
  const pulse = pulsing ? "motion-safe:animate-pulse" : "";
  return (
    <div aria-hidden="true" className="flex flex-col gap-2 pt-1" data-testid="cell-skeleton">
      <div className={`h-2.5 w-11/12 rounded bg-zinc-200 ${pulse}`} />
      <div className={`h-2.5 w-4/5 rounded bg-zinc-200 ${pulse} [animation-delay:150ms]`} />
      <div className={`h-2.5 w-3/5 rounded bg-zinc-200 ${pulse} [animation-delay:300ms]`} />
    </div>
  );
}
