/**
 * Runs once when the server starts: opens the database and starts the in-process worker, so runs
 * left unfinished by a previous process continue before any page is opened. When another process
 * holds the embedded database's folder (a `parallaxr run` in progress), the server does not fail:
 * it says which process holds it, answers 503 naming it, and opens the folder once it is free.
 * (A hook that throws is remembered by Next.js, and every later request would fail with it.)
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { setHeapGrowth } = await import("./lib/server/heap-growth");
  setHeapGrowth(process.env, (message) => console.error(`[parallaxr] ${message}`));
  const { getAppContext } = await import("./lib/server/context");
  const { isFolderInUseError } = await import("./lib/db/errors");
  try {
    await getAppContext();
  } catch (error) {
    if (!isFolderInUseError(error)) throw error;
    console.error(`[parallaxr] ${error.message} Waiting for it: requests answer 503 until the folder is free.`);
    const retry = () =>
      void getAppContext().then(
        () => console.error("[parallaxr] The data folder is free: opened it."),
        (again: unknown) => {
          if (isFolderInUseError(again)) setTimeout(retry, 1000).unref();
          else console.error("[parallaxr] Could not open the database:", again);
        },
      );
    setTimeout(retry, 1000).unref();
  }
}
