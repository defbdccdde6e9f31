/** A hash of everything a production build is made from, under root, and the build-time settings. */
export function sourceHash(options: { root: string; env?: Record<string, string | undefined> }): string;
/** Whether .next holds a build of the sources as they are now. */
export function buildState(options: { root: string; env?: Record<string, string | undefined> }): {
  state: "missing" | "stale" | "current";
  built?: string;
  current?: string;
};
/** Runs `next build` under root unless the build there is current. */
export function ensureBuild(options: { root: string; env?: Record<string, string | undefined>; log?: (message: string) => void }): {
  built: boolean;
};
