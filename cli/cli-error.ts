/** The exit codes of every `parallaxr` command (also in `parallaxr --help`). */
export const exitCodes = {
  ok: 0,
  /** The work failed: a server or the database refused, a file could not be written. */
  failed: 1,
  /** The command line is wrong: an unknown command or option, a missing argument. */
  usage: 2,
  /** The data folder is held by a process this command cannot reach. */
  unavailable: 3,
  /** Stopped by Ctrl-C (SIGINT) or SIGTERM; what had finished is kept (128 + SIGINT's number, as shells report it). */
  interrupted: 130,
} as const;

/** A failure to report on stderr as one message, with the exit code it ends the command with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = exitCodes.failed,
  ) {
    super(message);
    this.name = "CliError";
  }
}
