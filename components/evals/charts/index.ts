// The eval charts and the paired comparison, for the /evals page.
export { EvalCharts } from "./eval-charts";
export { EvalComparison } from "./eval-comparison";
