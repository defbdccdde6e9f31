/**
 * The models a matrix names. The spec (specs/matrix-comparisons.md) names Groq's models by short
 * names (llama-3.3-70b, mixtral, mixtral-8x7b); they go through the alias table below to Groq's
 * own ids. Every other name follows the eval configs' rules (lib/core/eval/model-route.ts):
 * claude-* to anthropic, gpt-* and o<digit>* to openai, gemini-* to gemini, provider/model, and
 * mock/<model> with no key.
 */
import { routeModel, type ModelRoute } from "@/lib/core/eval/model-route";

/**
 * The spec's short names of Groq models, and Groq's full ids written bare, as provider/model.
 * llama-3.3-70b and mixtral are the spec's config and progress names, mixtral-8x7b its model
 * comparison's; llama-3.3-70b-versatile and mixtral-8x7b-32768 the ids its comparisons print.
 * llama-3.1-8b is Groq's small model beside them, priced in the shipped price table.
 */
export const GROQ_MODEL_ALIASES: Readonly<Record<string, string>> = {
  "llama-3.3-70b": "groq/llama-3.3-70b-versatile",
  "llama-3.3-70b-versatile": "groq/llama-3.3-70b-versatile",
  mixtral: "groq/mixtral-8x7b-32768",
  "mixtral-8x7b": "groq/mixtral-8x7b-32768",
  "mixtral-8x7b-32768": "groq/mixtral-8x7b-32768",
  "llama-3.1-8b": "groq/llama-3.1-8b-instant",
  "llama-3.1-8b-instant": "groq/llama-3.1-8b-instant",
};

/** A model of a matrix: the name the user wrote, and the provider and model id it calls. */
export interface MatrixModel {
  /** As written in --models or models.txt (llama-3.3-70b); ids and folder names use it. */
  name: string;
  provider: string;
  /** The id the provider knows it by (llama-3.3-70b-versatile). */
  model: string;
  /**
   * How comparisons print it: the provider's id for an alias (llama-3.3-70b-versatile, as the
   * spec's comparisons do), else the name as written (mock/echo, claude-sonnet-4-20250514).
   */
  label: string;
}

/** The route of a matrix model name, through the alias table first, or the error to show. */
export function resolveMatrixModel(
  name: string,
  providerIds: readonly string[],
): { ok: true; model: MatrixModel } | { ok: false; error: string } {
  const trimmed = name.trim();
  const alias = Object.prototype.hasOwnProperty.call(GROQ_MODEL_ALIASES, trimmed) ? GROQ_MODEL_ALIASES[trimmed] : null;
  const routed = routeModel(alias ?? trimmed, providerIds);
  if (!routed.ok) return routed;
  const route: ModelRoute = routed.route;
  return { ok: true, model: { name: trimmed, provider: route.provider, model: route.model, label: alias ? route.model : trimmed } };
}
