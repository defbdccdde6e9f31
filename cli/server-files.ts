import { providerFactories } from "@/lib/providers/provider-factories";
import { CliError, exitCodes } from "./cli-error";
import type { DataTarget } from "./data-target";
import { providerVariables } from "./experiments/dotenv-credentials";

type ServerTarget = Extract<DataTarget, { kind: "server" }>;

/**
 * Says which of ./.env's keys stay here when a command runs on a server: the server calls the
 * models with its own keys. alsoKeys names variables beyond the text providers' (the image
 * vendors'); source says where the keys came from, for the message.
 */
export function warnKeysNotSent(
  target: ServerTarget,
  dotenv: Record<string, string>,
  onWarning: (message: string) => void,
  { alsoKeys, source = "./.env" }: { alsoKeys?: RegExp; source?: string } = {},
): void {
  const keyVariables = new Set(Object.values(providerFactories).flatMap((factory) => Object.values(providerVariables(factory)).flat()));
  const notSent = Object.keys(dotenv).filter((name) => keyVariables.has(name) || alsoKeys?.test(name));
  if (notSent.length === 0) return;
  onWarning(
    `Running on the server at ${target.url}: it uses its own keys; ${notSent.join(", ")} from ${source} ${notSent.length === 1 ? "was" : "were"} not sent.`,
  );
}

/**
 * A file from a server (a download, an image): its bytes exactly as sent and the answer's headers.
 * An unreachable server, a refusal (with the server's own message) or a file over maxBytes is a
 * CliError.
 */
export async function downloadFromServer(
  target: ServerTarget,
  route: string,
  { maxBytes = Number.POSITIVE_INFINITY }: { maxBytes?: number } = {},
): Promise<{ bytes: Uint8Array; headers: Headers }> {
  let response: Response;
  try {
    response = await fetch(`${target.url}${route}`, { headers: { authorization: `Bearer ${target.token}` } });
  } catch (error) {
    throw new CliError(`Could not reach the server at ${target.url}: ${(error as Error).message}. Is it running?`, exitCodes.unavailable);
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      message = ((await response.json()) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // not JSON: the status says it
    }
    throw new CliError(`The server at ${target.url} answered ${response.status} for ${route}: ${message}`);
  }
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new CliError(`The server at ${target.url} sent ${route} of ${declared} bytes, more than ${maxBytes}.`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > maxBytes)
    throw new CliError(`The server at ${target.url} sent ${route} of ${bytes.length} bytes, more than ${maxBytes}.`);
  return { bytes, headers: response.headers };
}
