// The rule lives in lib/core so that POST /api/v1/runs refuses exactly what the page's
// validation dialog refuses; the page's imports keep this path.
export { findRunProblem, OUTPUT_VARIABLE, type RunValidationProblem } from "@/lib/core/find-run-problem";
