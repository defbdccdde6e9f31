import { isProviderError, ProviderError } from "@/lib/providers/provider-error";

/**
 * What a failed call was, as a ProviderError: a timeout when the call's own timer fired, the
 * provider's error as it came otherwise. Anything else is our own bug and is rethrown, so it
 * stays loud instead of becoming a red cell.
 */
export function asProviderError(caught: unknown, context: { timedOut: boolean; timeoutMs: number }): ProviderError {
  if (context.timedOut) {
    return new ProviderError({ code: "timeout", message: `No answer within ${context.timeoutMs / 1000} s.`, cause: caught });
  }
  if (isProviderError(caught)) return caught;
  throw caught;
}
