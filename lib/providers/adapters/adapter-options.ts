/** What every vendor adapter is built from. */
export interface AdapterOptions {
  apiKey: string | null;
  /** The API root, e.g. https://api.openai.com/v1 (tests point it at a local server). */
  baseURL: string;
  fetch?: typeof fetch;
  /**
   * False where this server may not call private addresses: every request's host is resolved and
   * refused if private (see createGuardedFetch). True or unset: the base URL was checked already.
   */
  allowPrivateAddresses?: boolean;
}
