type VariableChipsProps = {
  names: string[];
  /** Names the active dataset has no column for; their chips get a red outline. */
  missing?: string[];
};

/** The prompt's detected `{{variables}}`, as read-only purple chips. */
export function VariableChips({ names, missing = [] }: VariableChipsProps) {
  if (names.length === 0) {
    return (
      <p className="text-sm text-zinc-500">
        None yet. Type <code className="font-mono text-accent-strong">{"{{name}}"}</code> to add one.
      </p>
    );
  }
  const missingNames = new Set(missing);
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Detected variables">
      {names.map((name) => {
        const isMissing = missingNames.has(name);
        return (
          <li
            key={name}
            aria-label={isMissing ? `${name}, not in the dataset` : undefined}
            title={isMissing ? "Not in the dataset" : undefined}
            data-missing={isMissing || undefined}
            className={`rounded-full border bg-accent-soft px-2.5 py-0.5 font-mono text-xs font-medium text-accent-strong ${
              isMissing ? "border-red-600 ring-1 ring-red-600/25" : "border-accent-line"
            }`}
          >
            {`{{${name}}}`}
          </li>
        );
      })}
    </ul>
  );
}
