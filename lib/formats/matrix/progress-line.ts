/** The spec's progress line for the eval that starts: "Running 3/12: v2 + mixtral + interview-02" (position counts from 1; the model as written). */
export function progressLine({
  position,
  total,
  promptVersion,
  model,
  inputId,
}: {
  position: number;
  total: number;
  promptVersion: string;
  model: string;
  inputId: string;
}): string {
  return `Running ${position}/${total}: ${promptVersion} + ${model} + ${inputId}`;
}
