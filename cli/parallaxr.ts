import { Command, CommanderError } from "commander";
import { CliError, exitCodes } from "./cli-error";
import { closeUntakenDatabase, openDatabaseEarly } from "./early-database";

/**
 * Each command's module, loaded only when the command line names it: `parallaxr run` never
 * loads the image, chart and zip code of the other commands (each import costs start-up time).
 */
const commandModules: Record<string, () => Promise<(program: Command) => void>> = {
  run: async () => (await import("./commands/run")).registerRunCommand,
  token: async () => (await import("./commands/token")).registerTokenCommand,
  eval: async () => (await import("./commands/eval")).registerEvalCommand,
  matrix: async () => (await import("./commands/matrix")).registerMatrixCommand,
  "batch-run": async () => (await import("./commands/batch-run")).registerBatchRunCommand,
};

/**
 * The `parallaxr` program for the command line argv: the command it names registered, or every
 * command when it names none (the overview's --help, an unknown command's error).
 */
export async function buildProgram(argv: string[] = []): Promise<Command> {
  const program = new Command("parallaxr")
    .description("Parallaxr: run prompts over datasets against several models, grade and compare.")
    .version(process.env.npm_package_version ?? "0.1.0")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: (text) => process.stdout.write(text), writeErr: (text) => process.stderr.write(text) })
    .addHelpText(
      "after",
      `
Exit codes: 0 done; 1 the work failed (the message says why); 2 the command line (or an input
file) is wrong; 3 the data folder is held by a process this command cannot reach; 130 interrupted.
Data and tokens go to stdout; messages and progress to stderr.`,
    );
  const named = argv[2];
  const chosen = named !== undefined && Object.hasOwn(commandModules, named) ? [named] : Object.keys(commandModules);
  for (const register of await Promise.all(chosen.map((name) => commandModules[name]()))) register(program);
  return program;
}

/** Runs the command line argv (process.argv's shape); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  // A command is a short process: PGlite's start counts for more than its speed after minutes
  // (lib/db/open-pglite.ts: the tiering budget that applies when PARALLAXR_PGLITE_OPTIMIZE=1, and
  // a buffer pool PGlite zeroes in less time as it starts). The person's own settings win.
  process.env.PARALLAXR_PGLITE_TIERING_BUDGET ??= "1000000000";
  process.env.PARALLAXR_PGLITE_SHARED_BUFFERS ??= "4MB";
  openDatabaseEarly(argv);
  try {
    return await runProgram(argv);
  } finally {
    await closeUntakenDatabase();
  }
}

async function runProgram(argv: string[]): Promise<number> {
  const program = await buildProgram(argv);
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync(argv);
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with code 0; anything else commander refuses is a usage error
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    if (error instanceof CliError) {
      process.stderr.write(`parallaxr: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`parallaxr: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitCodes.failed;
  }
}
