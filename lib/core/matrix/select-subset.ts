/**
 * The subset flags of `parallaxr matrix` (specs/matrix-comparisons.md): --prompts, --models and
 * --inputs (--transcripts is the spec's name for --inputs), each a comma-separated list checked
 * against what exists. A malformed list gets the spec's message ("--prompts must be
 * comma-separated versions (e.g., v1,v2,v3)", and the same form for the other flags) followed by
 * what is wrong with it; a name that does not exist is named with what does. Without a flag
 * every one is run; for models "every one" is the list in models.txt, and without that file
 * --models is required.
 */

/** A subset flag, as typed. */
export type SubsetFlag = "--prompts" | "--models" | "--inputs" | "--transcripts";

const WHAT: Record<SubsetFlag, { items: string; example: string; noun: string }> = {
  "--prompts": { items: "versions", example: "v1,v2,v3", noun: "prompt version" },
  "--models": { items: "models", example: "llama-3.3-70b,mixtral", noun: "model" },
  "--inputs": { items: "input ids", example: "tech-talk-01,interview-02", noun: "input" },
  "--transcripts": { items: "transcript IDs", example: "tech-talk-01,interview-02", noun: "transcript" },
};

/** The spec's message for a malformed list: "--prompts must be comma-separated versions (e.g., v1,v2,v3)". */
export function invalidSubsetMessage(flag: SubsetFlag): string {
  const { items, example } = WHAT[flag];
  return `${flag} must be comma-separated ${items} (e.g., ${example})`;
}

/** The message when no models are named and there is no models.txt to run them all from. */
export function modelsRequiredMessage(modelsFile: string): string {
  return `--models is required: there is no ${modelsFile} (one model per line) to run every model from; name them with --models (e.g., ${WHAT["--models"].example})`;
}

/** The names selected, in the order given, or the message to show. */
export type SubsetSelection = { ok: true; names: string[] } | { ok: false; error: string };

/**
 * The names a subset flag selects. value is the flag's text (undefined when not given: every
 * name available). available is what exists, in the order "every one" runs them; null when
 * there is no list (models without models.txt), and then the flag is required. acceptOther says
 * whether a name outside available is still valid (a saved prompt `name@v3`, a model that is not
 * in models.txt); without it such a name is an error.
 */
export function selectSubset({
  flag,
  value,
  available,
  acceptOther,
  missingListMessage,
}: {
  flag: SubsetFlag;
  value: string | undefined;
  available: readonly string[] | null;
  acceptOther?: (name: string) => boolean;
  /** Shown when value is undefined and available is null. */
  missingListMessage?: string;
}): SubsetSelection {
  if (value === undefined) {
    if (available === null) return { ok: false, error: missingListMessage ?? `${flag} is required` };
    return { ok: true, names: [...available] };
  }
  const invalid = (reason: string): SubsetSelection => ({ ok: false, error: `${invalidSubsetMessage(flag)}: ${reason}` });
  if (value.trim() === "") return invalid("the list is empty");
  const names = value.split(",").map((name) => name.trim());
  const emptyAt = names.findIndex((name) => name === "");
  if (emptyAt !== -1) return invalid(`item ${emptyAt + 1} of "${value}" is empty`);
  const spaced = names.find((name) => /\s/.test(name));
  if (spaced !== undefined) return invalid(`"${spaced}" has white space in it`);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) return invalid(`"${name}" is named twice`);
    seen.add(name);
  }
  const known = new Set(available ?? []);
  const unknown = names.filter((name) => !known.has(name) && !(acceptOther?.(name) ?? false));
  if (unknown.length > 0) {
    const { noun } = WHAT[flag];
    const list = unknown.map((name) => `"${name}"`).join(", ");
    const have = available && available.length > 0 ? `; available: ${available.join(", ")}` : "";
    return { ok: false, error: `${flag}: unknown ${noun}${unknown.length > 1 ? "s" : ""} ${list}${have}` };
  }
  return { ok: true, names };
}
