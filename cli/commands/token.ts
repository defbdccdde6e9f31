import type { Command } from "commander";
import { createAccessToken, listUserAccessTokens, revokeUserAccessToken } from "@/lib/auth/access-tokens";
import type { AccessTokenSummary } from "@/lib/db/tokens/api-tokens";
import { CliError } from "../cli-error";
import { callServer, chooseDataTarget, type DataTarget } from "../data-target";

type TargetOptions = { server?: string; token?: string };

/** `parallaxr token create|list|revoke`: the access tokens a server beyond loopback asks for. */
export function registerTokenCommand(program: Command): void {
  const token = program
    .command("token")
    .description("create, list and revoke access tokens (needed when the server listens beyond 127.0.0.1)")
    .addHelpText(
      "after",
      `
Where it acts: the running server that holds this machine's data folder (asked over loopback),
else the data folder itself (PARALLAXR_DATA_DIR, else .data in the Parallaxr folder), or the
Postgres server in DATABASE_URL; --server <url> with --token acts through any server.`,
    );

  withTarget(token.command("create").description("make a token; it is printed once, on stdout"))
    .option("-n, --name <name>", "a name to recognise it by in `token list`", defaultName())
    .action(async (options: TargetOptions & { name: string }) => {
      const name = options.name.trim();
      if (!name || name.length > 100) throw new CliError("--name must be 1 to 100 characters.", 2);
      const created = await onTarget(chooseDataTarget(options), {
        server: (target) => callServer<{ token: string }>(target, "/api/v1/tokens", { method: "POST", body: { name } }),
        database: (db, userId) => createAccessToken(db, { userId, name }),
      });
      process.stdout.write(`${created.token}\n`);
      process.stderr.write(
        `Token "${name}" created. It is shown this once: keep it somewhere safe.\n` +
          "Sign in at <server>/sign-in with it, or send it as `Authorization: Bearer <token>`.\n",
      );
    });

  withTarget(token.command("list").description("the tokens, newest first (never the tokens themselves)"))
    .option("--json", "print JSON instead of a table")
    .action(async (options: TargetOptions & { json?: boolean }) => {
      const tokens = await onTarget(chooseDataTarget(options), {
        server: async (target) => (await callServer<{ tokens: AccessTokenSummary[] }>(target, "/api/v1/tokens")).tokens,
        database: (db, userId) => listUserAccessTokens(db, { userId }),
      });
      process.stdout.write(options.json ? `${JSON.stringify(tokens, null, 2)}\n` : formatTable(tokens));
    });

  withTarget(token.command("revoke").description("revoke a token by its id (or first 8 characters) or its name"))
    .argument("<id-or-name>", "as `parallaxr token list` shows it")
    .action(async (idOrName: string, options: TargetOptions) => {
      const revoked = await onTarget(chooseDataTarget(options), {
        server: async (target) =>
          (
            await callServer<{ revoked: AccessTokenSummary[] }>(target, `/api/v1/tokens/${encodeURIComponent(idOrName)}`, {
              method: "DELETE",
            })
          ).revoked,
        database: (db, userId) => revokeUserAccessToken(db, { userId, idOrName }),
      });
      if (revoked.length === 0) throw new CliError(`No live token has the id or name "${idOrName}". See \`parallaxr token list\`.`);
      for (const entry of revoked) process.stderr.write(`Revoked "${entry.name}" (${entry.id.slice(0, 8)}, ...${entry.last4}).\n`);
    });
}

function withTarget(command: Command): Command {
  return command
    .option("--server <url>", "act through this server's REST API instead")
    .option("--token <token>", "access token for --server (default: PARALLAXR_TOKEN)");
}

async function onTarget<T>(
  target: DataTarget,
  act: {
    server: (target: Extract<DataTarget, { kind: "server" }>) => Promise<T>;
    database: (db: import("@/lib/db/database").Database, userId: string) => Promise<T>;
  },
): Promise<T> {
  if (target.kind === "server") return act.server(target);
  const db = await target.open();
  try {
    return await act.database(db, target.userId);
  } finally {
    await db.close();
  }
}

function defaultName(): string {
  return `cli ${new Date().toISOString().slice(0, 16).replace("T", " ")}`;
}

function formatTable(tokens: AccessTokenSummary[]): string {
  if (tokens.length === 0) return "No tokens yet: `parallaxr token create --name <name>` makes one.\n";
  const rows = [
    ["ID", "NAME", "ENDS", "CREATED", "LAST USED", "REVOKED"],
    ...tokens.map((token) => [
      token.id.slice(0, 8),
      token.name,
      `...${token.last4}`,
      day(token.createdAt),
      day(token.lastUsedAt),
      day(token.revokedAt),
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, column) => cell.padEnd(widths[column]))
          .join("  ")
          .trimEnd(),
      )
      .join("\n") + "\n"
  );
}

function day(iso: string | null): string {
  return iso ? iso.slice(0, 16).replace("T", " ") : "-";
}
