import { localUserId } from "@/lib/auth/local-user";
import { readFolderLock } from "@/lib/db/data-folder-lock";
import type { Database } from "@/lib/db/database";
import { databaseConfigFromEnv, defaultDataDir, openDatabase, pgliteFolder } from "@/lib/db/open-database";
import { CliError, exitCodes } from "./cli-error";
import { takeEarlyDatabase } from "./early-database";

/** Where a command acts: through a running server's REST API, or on the database itself. */
export type DataTarget =
  | { kind: "server"; url: string; token: string; /** the server holds this machine's data folder */ local: boolean }
  | { kind: "database"; userId: string; open: () => Promise<Database>; describe: string };

/**
 * Decides where a command acts. `--server URL` (with --token or PARALLAXR_TOKEN): that server.
 * With DATABASE_URL: the Postgres server directly. Otherwise the embedded database's folder: a live
 * server that holds it is asked over loopback with the control token from the folder's lock
 * (never two processes on one PGlite folder); a free folder is opened by this process.
 */
export function chooseDataTarget({
  server,
  token,
  env = process.env,
}: {
  server?: string;
  token?: string;
  env?: NodeJS.ProcessEnv;
}): DataTarget {
  if (server) {
    const secret = token ?? env.PARALLAXR_TOKEN;
    if (!secret) throw new CliError("--server needs an access token: pass --token <token> or set PARALLAXR_TOKEN.", exitCodes.usage);
    return { kind: "server", url: server.replace(/\/+$/, ""), token: secret, local: false };
  }
  const config = databaseConfigFromEnv(env);
  if (config.databaseUrl) {
    return { kind: "database", userId: localUserId, open: () => openDatabase(config), describe: "the Postgres server in DATABASE_URL" };
  }
  const dataDir = config.dataDir ?? defaultDataDir;
  const folder = pgliteFolder(dataDir);
  const holder = readFolderLock(folder);
  // This process holds it when it began opening the database as it started (early-database.ts).
  if (holder && holder.pid !== process.pid) {
    if (holder.url && holder.controlToken) return { kind: "server", url: holder.url, token: holder.controlToken, local: true };
    throw new CliError(
      `The data folder ${dataDir} is in use by process ${holder.pid}, which does not take commands. Stop it and try again, ` +
        "or pass --server <url> --token <token> to act through a running server.",
      exitCodes.unavailable,
    );
  }
  return {
    kind: "database",
    userId: localUserId,
    open: () => takeEarlyDatabase(dataDir) ?? openDatabase({ dataDir }),
    describe: `the data folder ${dataDir}`,
  };
}

/** Calls a server's REST API as the target's token; throws a CliError with the server's own message. */
export async function callServer<T>(
  target: Extract<DataTarget, { kind: "server" }>,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${target.url}${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${target.token}`,
        accept: "application/json",
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch (error) {
    throw new CliError(`Could not reach the server at ${target.url}: ${(error as Error).message}. Is it running?`, exitCodes.unavailable);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const message = (body as { error?: { message?: string } } | null)?.error?.message ?? `${response.status} ${response.statusText}`;
    throw new CliError(`The server at ${target.url} answered ${response.status}: ${message}`);
  }
  return body as T;
}
