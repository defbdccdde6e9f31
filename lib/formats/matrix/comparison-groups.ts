/**
 * The comparisons a batch makes (specs/matrix-comparisons.md, "Auto-detect comparison
 * opportunities"): for each input and model, the prompt versions side by side (a prompt
 * comparison), and for each input and prompt version, the models side by side (a model
 * comparison); only groups of two or more. Failed evals stay in their group, shown with their error.
 *
 * Order: prompt comparisons, then model comparisons; each by input, then model or version; the
 * evals inside by version or model name, numbers in names compared as numbers (v2 before v10).
 *
 * Folder names carry both keys (`{batch ts}_prompt_{input}_{model}`, `{batch ts}_model_{input}_{prompt}`,
 * lib/core/matrix/ids.ts). Two groups can still meet on one name, since `/` is written `-`
 * (groq/x and groq-x) and `_` joins the parts (input a_b with model c, input a with model b_c);
 * the later one then gets `-2`, `-3`, ... so no comparison overwrites another.
 */
import { modelComparisonFolder, promptComparisonFolder } from "@/lib/core/matrix/ids";
import { pairedGrades, type PairedGrades } from "@/lib/core/matrix/paired-grades";
import { inputGrade, type MatrixRunRecord } from "@/lib/formats/matrix/matrix-run-record";

/** The two kinds of comparison, as their front matter names them. */
export type ComparisonType = "prompt_comparison" | "model_comparison";

/** One comparison: what its evals share, and the evals. */
export interface ComparisonGroup {
  type: ComparisonType;
  /** The folder under comparisons/ its comparison.md goes in. */
  folder: string;
  /** The batch's time, ISO 8601 (front matter and index order). */
  timestamp: string;
  input: { id: string; title: string };
  /** The model all evals share (a prompt comparison); null for a model comparison. */
  model: MatrixRunRecord["model"] | null;
  /** The prompt version all evals share (a model comparison); null for a prompt comparison. */
  prompt: MatrixRunRecord["prompt"] | null;
  /** Two or more, sorted by version (prompt comparison) or model name (model comparison). */
  runs: MatrixRunRecord[];
  /**
   * With a grader or metrics: each later side (version or model) against the first, paired by
   * input over every input of the batch both sides graded, on the group's shared model (a prompt
   * comparison) or prompt version (a model comparison). Absent when the batch grades nothing.
   */
  paired?: ComparisonPairing[];
}

/** One side of a comparison against its first: labels as the comparison prints them, and the paired statistics. */
export interface ComparisonPairing {
  baseline: string;
  candidate: string;
  grades: PairedGrades;
}

const collator = new Intl.Collator("en", { numeric: true });

/** Names in a stable order: numbers as numbers, then code units so no two names tie. */
export function compareNames(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Every comparison of a batch's runs. batchTimestamp is the batch id's `20251227_143500`;
 * timestamp the batch's time in ISO 8601.
 */
export function comparisonGroups({
  runs,
  batchTimestamp,
  timestamp,
}: {
  runs: readonly MatrixRunRecord[];
  batchTimestamp: string;
  timestamp: string;
}): ComparisonGroup[] {
  const byInputAndModel = groupBy(runs, (run) => [run.input.id, run.model.name]);
  const byInputAndPrompt = groupBy(runs, (run) => [run.input.id, run.prompt.version]);
  const used = new Set<string>();
  const uniqueFolder = (name: string) => {
    let folder = name;
    for (let suffix = 2; used.has(folder); suffix++) folder = `${name}-${suffix}`;
    used.add(folder);
    return folder;
  };

  const graded = runs.some((run) => run.grading !== undefined);
  // One pairing serves every input's comparison of the same two sides: computed once (a bootstrap is 10,000 resamples).
  const pairings = new Map<string, PairedGrades>();
  const pairing = (key: string, baseline: MatrixRunRecord[], candidate: MatrixRunRecord[]): PairedGrades => {
    let found = pairings.get(key);
    if (!found) {
      found = pairedGrades(gradesOf(baseline), gradesOf(candidate));
      pairings.set(key, found);
    }
    return found;
  };

  const groups: ComparisonGroup[] = [];
  for (const [[inputId, modelName], members] of byInputAndModel) {
    const versions = new Set(members.map((run) => run.prompt.version));
    if (versions.size < 2) continue;
    const sorted = [...members].sort((a, b) => compareNames(a.prompt.version, b.prompt.version));
    groups.push({
      type: "prompt_comparison",
      folder: uniqueFolder(promptComparisonFolder({ batchTimestamp, inputId, model: modelName })),
      timestamp,
      input: { ...sorted[0].input },
      model: { ...sorted[0].model },
      prompt: null,
      runs: sorted,
      ...(graded
        ? {
            paired: sides(sorted.map((run) => run.prompt.version)).map(([first, other]) => ({
              baseline: first,
              candidate: other,
              grades: pairing(
                JSON.stringify(["prompt", modelName, first, other]),
                runs.filter((run) => run.model.name === modelName && run.prompt.version === first),
                runs.filter((run) => run.model.name === modelName && run.prompt.version === other),
              ),
            })),
          }
        : {}),
    });
  }
  for (const [[inputId, version], members] of byInputAndPrompt) {
    const models = new Set(members.map((run) => run.model.name));
    if (models.size < 2) continue;
    const sorted = [...members].sort((a, b) => compareNames(a.model.name, b.model.name));
    groups.push({
      type: "model_comparison",
      folder: uniqueFolder(modelComparisonFolder({ batchTimestamp, inputId, promptVersion: version })),
      timestamp,
      input: { ...sorted[0].input },
      model: null,
      prompt: { ...sorted[0].prompt },
      runs: sorted,
      ...(graded
        ? {
            paired: sides(sorted.map((run) => run.model.name)).map(([first, other]) => ({
              baseline: labelOf(sorted, first),
              candidate: labelOf(sorted, other),
              grades: pairing(
                JSON.stringify(["model", version, first, other]),
                runs.filter((run) => run.prompt.version === version && run.model.name === first),
                runs.filter((run) => run.prompt.version === version && run.model.name === other),
              ),
            })),
          }
        : {}),
    });
  }
  return groups;
}

/** The first of a group's distinct sides paired with each later one. */
function sides(names: readonly string[]): Array<[string, string]> {
  const distinct = [...new Set(names)];
  return distinct.slice(1).map((other) => [distinct[0], other]);
}

function labelOf(runs: readonly MatrixRunRecord[], modelName: string): string {
  return runs.find((run) => run.model.name === modelName)?.model.label ?? modelName;
}

function gradesOf(runs: readonly MatrixRunRecord[]) {
  return runs.map(inputGrade).filter((grade) => grade !== null);
}

/** Runs grouped by a two-part key, the groups sorted by it. */
function groupBy(
  runs: readonly MatrixRunRecord[],
  keyOf: (run: MatrixRunRecord) => [string, string],
): Array<[[string, string], MatrixRunRecord[]]> {
  const groups = new Map<string, { key: [string, string]; runs: MatrixRunRecord[] }>();
  for (const run of runs) {
    const key = keyOf(run);
    const id = JSON.stringify(key);
    const group = groups.get(id) ?? { key, runs: [] };
    group.runs.push(run);
    groups.set(id, group);
  }
  return [...groups.values()]
    .sort((a, b) => compareNames(a.key[0], b.key[0]) || compareNames(a.key[1], b.key[1]))
    .map((group) => [group.key, group.runs]);
}
