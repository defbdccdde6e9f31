/**
 * Runs once when the server starts: opens the database and starts the in-process worker, so runs
 * left unfinished by a previous process continue before any page is opened.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getAppContext } = await import("./lib/server/context");
  await getAppContext();
}
