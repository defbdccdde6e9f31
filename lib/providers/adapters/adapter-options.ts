/** What every vendor adapter is built from. */
export interface AdapterOptions {
  apiKey: string | null;
  /** The API root, e.g. https://api.openai.com/v1 (tests point it at a local server). */
  baseURL: string;
  fetch?: typeof fetch;
}
