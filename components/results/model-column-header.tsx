type ModelColumnHeaderProps = {
  position: number;
  name: string;
  canRemove: boolean;
  onRemove(): void;
};

/** A model column's header: its number, "provider / model" and a × to remove it. */
export function ModelColumnHeader({ position, name, canRemove, onRemove }: ModelColumnHeaderProps) {
  return (
    <th
      scope="col"
      className="group sticky top-0 z-10 w-[310px] min-w-[310px] border-y border-r border-zinc-200 bg-white px-3 py-0 text-left font-normal"
    >
      <div className="flex h-10 items-center gap-2">
        <span
          aria-hidden="true"
          className="grid size-5 shrink-0 place-items-center rounded bg-accent-soft text-[11px] font-semibold text-accent-strong ring-1 ring-accent-line"
        >
          {position}
        </span>
        <span className="min-w-0 flex-1 truncate text-sm font-medium text-zinc-900" title={name}>
          {name}
        </span>
        <button
          type="button"
          onClick={onRemove}
          disabled={!canRemove}
          aria-label={`Remove column ${position}`}
          title={canRemove ? `Remove column ${position}` : "A run needs at least one model"}
          className="grid size-6 shrink-0 place-items-center rounded text-zinc-500 opacity-70 group-hover:opacity-100 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:opacity-100 disabled:invisible"
        >
          <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.8">
            <path d="M4 4l8 8M12 4l-8 8" strokeLinecap="round" />
          </svg>
        </button>
      </div>
    </th>
  );
}
