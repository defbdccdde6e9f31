/**
 * A function that calls load the first time it is called and hands every caller that first
 * promise. The vendor SDKs load this way, on a provider's first call: a process that never calls
 * a vendor never spends its start-up loading that vendor's package.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | null = null;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = null;
      throw error;
    });
    return loaded;
  };
}
