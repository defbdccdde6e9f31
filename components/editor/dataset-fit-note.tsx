import { datasetFit, graderFit } from "@/lib/client/dataset-fit";

// Past this many, unused columns are counted rather than listed: wide datasets have dozens.
const LISTED_UNUSED = 6;

type DatasetFitNoteProps = {
  variables: string[];
  /** The active dataset's headers; null when none is loaded (then nothing is shown). */
  headers: string[] | null;
  datasetName: string;
  /** For a grader: the variable the generator's answer fills, e.g. "output". */
  outputName?: string;
};

/** Under the variable chips: which variables the dataset lacks, and which of its columns go unused. */
export function DatasetFitNote({ variables, headers, datasetName, outputName }: DatasetFitNoteProps) {
  const { missing, unused } = outputName === undefined ? datasetFit(variables, headers) : graderFit(variables, headers, outputName);
  const listed = unused.slice(0, LISTED_UNUSED);
  const more = unused.length - listed.length;

  return (
    <div role="status" className="flex flex-col gap-0.5 text-xs empty:hidden">
      {missing.length > 0 && (
        <p className="text-red-700">
          Not in {datasetName}: <span className="font-mono">{missing.map((name) => `{{${name}}}`).join(", ")}</span>
        </p>
      )}
      {unused.length > 0 && (
        <p className="text-zinc-500" title={more > 0 ? unused.join(", ") : undefined}>
          Columns not used: {listed.join(", ")}
          {more > 0 && ` and ${more} more`}
        </p>
      )}
    </div>
  );
}
