import type { MatrixRunRecord } from "@/lib/formats/matrix/matrix-run-record";

const llama = { name: "llama-3.3-70b", provider: "groq", model: "llama-3.3-70b-versatile", label: "llama-3.3-70b-versatile" };
const mixtral = { name: "mixtral", provider: "groq", model: "mixtral-8x7b-32768", label: "mixtral-8x7b-32768" };
const echo = { name: "mock/echo", provider: "mock", model: "echo", label: "mock/echo" };

/** The models the fixtures use. */
export const models = { llama, mixtral, echo };

/** A finished eval with the given parts; the rest made up but fixed. */
export function record(
  parts: Partial<MatrixRunRecord> & { version?: string; promptName?: string | null; inputId?: string },
): MatrixRunRecord {
  const { version = "v1", promptName = null, inputId = "tech-talk-01", ...rest } = parts;
  const model = rest.model ?? llama;
  return {
    runId: `20251227_143500_${version}_${model.name.replace(/\//g, "-")}_${inputId}`,
    batchId: "20251227_143500_matrix",
    timestamp: "2025-12-27T14:35:00Z",
    prompt: { version, name: promptName },
    model,
    input: { id: inputId, title: inputId === "tech-talk-01" ? "Example Tech Talk" : inputId },
    output: `Output of ${version} by ${model.name} on ${inputId}`,
    tokens: { input: 1000, output: 100 },
    costUsd: 0.001,
    durationSeconds: 1.5,
    error: null,
    ...rest,
  };
}

/** Every eval of prompts x models x inputs, in the plan's order. */
export function matrix(versions: string[], modelList: MatrixRunRecord["model"][], inputs: string[]): MatrixRunRecord[] {
  return versions.flatMap((version) => modelList.flatMap((model) => inputs.map((inputId) => record({ version, model, inputId }))));
}
