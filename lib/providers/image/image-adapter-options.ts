import type { AdapterOptions } from "../adapters/adapter-options";

/** What every image adapter is built from: the text adapters' options, and a few knobs for slow vendors. */
export interface ImageAdapterOptions extends AdapterOptions {
  /** Resolves a host to its addresses, for the private-address check (tests pass their own). */
  resolveHost?: (host: string) => Promise<string[]>;
  /** Flux: time between polls of a pending request. */
  pollIntervalMs?: number;
  /** Flux: the most a downloaded result may be. */
  maxDownloadBytes?: number;
}
