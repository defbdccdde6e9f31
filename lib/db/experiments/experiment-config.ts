/** What an experiment run keeps in runs.config.experiment: its files' names and the CSV's header. */
export interface ExperimentConfig {
  promptFile: string;
  contextFiles: string[];
  experimentsFile: string;
  /** The experiments CSV's header, in order: the output's first columns. */
  columns: string[];
  /** The first row made a call for (1: all). */
  fromRow: number;
  /** SHA-256 of the document, the CSV and the options that change answers: how --resume finds the run. */
  inputHash: string;
}
