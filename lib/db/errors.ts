// Next.js loads instrumentation and each route bundle apart, so one process may hold two copies of
// this class: a registry-wide symbol marks every copy's instances (as ProviderError does).
const folderInUse = Symbol.for("parallaxr.FolderInUseError");

/** The PGlite folder is held by another live process (a `parallaxr run`, a server). */
export class FolderInUseError extends Error {
  readonly [folderInUse] = true;
  constructor(
    readonly folder: string,
    readonly holder: { pid: number; url?: string },
  ) {
    super(
      `The database folder ${folder} is in use by process ${holder.pid}${holder.url ? ` (the server at ${holder.url})` : ""}. ` +
        "Stop that process (the server, a worker or the CLI), or point PARALLAXR_DATA_DIR at another folder.",
    );
    this.name = "FolderInUseError";
  }
}

/** True when error is a FolderInUseError from any bundle. */
export function isFolderInUseError(error: unknown): error is FolderInUseError {
  return typeof error === "object" && error !== null && (error as { [folderInUse]?: boolean })[folderInUse] === true;
}
