// The texts of an experiment row's error_message column (specs/experiments-cli.md). The spec
// words three of them; the rest are one fixed text each, listed in the README. Several on one row
// are joined with "; " in the order they arose.

export { missingVariableWarning } from "./template";

/** The spec's warning when a provider cannot say how large a model's context window is. */
export function contextWindowUnknown(model: string): string {
  return `Context window unknown for model ${model}`;
}

/** The spec's error for a model the provider does not have. */
export function modelNotFound(model: string): string {
  return `Model ${model} not found or unavailable`;
}

/** A warning: the input is larger than the model's window (the call is still made, as the spec's status table says). */
export function contextOverflow(inputTokens: number, contextWindow: number, model: string): string {
  return `Input tokens ${inputTokens} exceed context window ${contextWindow} for model ${model}`;
}

/** A warning: the provider refused for its rate limit; no retry is made unless --retries asks. */
export function rateLimited(provider: string, detail: string, retryAfterMs: number | null): string {
  const retry = retryAfterMs == null ? "no retry time given" : `retry after ${formatSeconds(retryAfterMs / 1000)} s`;
  return `Rate limited by ${provider}: ${detail} (${retry})`;
}

/** An error: the provider refused the key; names the variable to set. */
export function authenticationFailed(provider: string, keyVariable: string | null): string {
  const fix = keyVariable
    ? `check ${keyVariable} in .env or the key saved in Settings -> Keys`
    : "check the provider's base URL and credentials";
  return `Authentication failed for ${provider}: ${fix}`;
}

/** An error: no key for a provider that needs one. */
export function missingKey(provider: string, keyVariable: string | null): string {
  return `Missing API key for ${provider}: set ${keyVariable ?? "its key"} in .env or save one in Settings -> Keys`;
}

/** An error: no answer within the timeout. */
export function timedOut(seconds: number): string {
  return `Request timed out after ${formatSeconds(seconds)} seconds`;
}

/** An error: the row names a provider Parallaxr does not have. */
export function unknownProvider(provider: string, known: readonly string[]): string {
  return provider === ""
    ? `No provider in this row: use one of ${known.join(", ")}`
    : `Unknown provider ${provider}: use one of ${known.join(", ")}`;
}

/** An error: the row has no model. */
export function missingModel(): string {
  return "No model in this row: give the model's identifier in the model column";
}

/** An error the provider answered with (or a network failure), with its own words. */
export function apiError(provider: string, detail: string): string {
  return `API error from ${provider}: ${detail}`;
}

/** Seconds as Python would print a float or an int: 300, 0.5, 2.25. */
function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : String(Math.round(seconds * 1000) / 1000);
}

/** The error_message column: the row's messages joined with "; ". */
export function joinMessages(messages: readonly string[]): string {
  return messages.join("; ");
}
