/** The loading state of a queued or running cell: three pulsing bars. */
export function CellSkeleton() {
  return (
    <div aria-hidden="true" className="flex flex-col gap-2 pt-1" data-testid="cell-skeleton">
      <div className="h-2.5 w-11/12 rounded bg-zinc-200 motion-safe:animate-pulse" />
      <div className="h-2.5 w-4/5 rounded bg-zinc-200 motion-safe:animate-pulse [animation-delay:150ms]" />
      <div className="h-2.5 w-3/5 rounded bg-zinc-200 motion-safe:animate-pulse [animation-delay:300ms]" />
    </div>
  );
}
