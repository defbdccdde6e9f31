import { Command, CommanderError } from "commander";
import { CliError, exitCodes } from "./cli-error";
import { registerBatchRunCommand } from "./commands/batch-run";
import { registerEvalCommand } from "./commands/eval";
import { registerMatrixCommand } from "./commands/matrix";
import { registerRunCommand } from "./commands/run";
import { registerTokenCommand } from "./commands/token";

/** The `parallaxr` program with every command registered. */
export function buildProgram(): Command {
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
  registerRunCommand(program);
  registerTokenCommand(program);
  registerEvalCommand(program);
  registerMatrixCommand(program);
  registerBatchRunCommand(program);
  return program;
}

/** Runs the command line argv (process.argv's shape); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
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
