type VariableChipsProps = { names: string[] };

/** The prompt's detected `{{variables}}`, as read-only purple chips. */
export function VariableChips({ names }: VariableChipsProps) {
  if (names.length === 0) {
    return (
      <p className="text-sm text-zinc-500">
        None yet. Type <code className="font-mono text-accent-strong">{"{{name}}"}</code> to add one.
      </p>
    );
  }
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Detected variables">
      {names.map((name) => (
        <li
          key={name}
          className="rounded-full border border-accent-line bg-accent-soft px-2.5 py-0.5 font-mono text-xs font-medium text-accent-strong"
        >
          {`{{${name}}}`}
        </li>
      ))}
    </ul>
  );
}
