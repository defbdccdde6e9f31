"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import type { CreateMatrixRequest, MatrixDetail, MatrixEval, MatrixPlanResponse, MatrixSummary } from "@/lib/api/matrix";
import { useAddressId, useFollowedRecord } from "@/lib/client/use-open-record";
import { ErrorAlert } from "@/components/ui/error-alert";
import { EvalDialog } from "./eval-dialog";
import { EvalsTabs } from "./evals-tabs";
import { InputsField, type InputPick } from "./inputs-field";
import { createMatrix, getMatrix, listMatrices, matrixSummaryUrl, matrixZipUrl, planMatrixRequest } from "./matrix-api";
import { MatrixComparisons } from "./matrix-comparisons";
import { MatrixGrid } from "./matrix-grid";
import { MatrixPlanView } from "./matrix-plan";
import { ModelsField } from "./models-field";
import { PastMatrices } from "./past-matrices";
import { PromptVersionsField, type PromptPick } from "./prompt-versions-field";

const FINISHED = new Set(["completed", "cancelled", "failed"]);
// How often an open matrix is read again while it runs: a finished eval shows this late at most.
const REFRESH_MS = 500;
const PATH = "/evals/matrix";

/**
 * /evals/matrix: pick prompt versions (files or saved prompts), models and inputs (files or a
 * dataset's rows), see the plan and its estimated cost, run it (asking first above 100 evals),
 * watch the prompts x models x inputs grid fill in, open an eval, read the comparisons and
 * download the batch folder; past matrices reopen at /evals/matrix?id=. The same runner as
 * `parallaxr matrix`; nothing is written to the server's disk.
 */
export function MatrixPage() {
  const [prompts, setPrompts] = useState<PromptPick[]>([]);
  const [models, setModels] = useState<string[]>([]);
  const [inputs, setInputs] = useState<InputPick[]>([]);
  const [planned, setPlanned] = useState<{ request: CreateMatrixRequest; plan: MatrixPlanResponse } | null>(null);
  const [planning, setPlanning] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { openId, open: openAddress, dropOpen } = useAddressId(PATH);
  const [past, setPast] = useState<MatrixSummary[] | null>(null);
  const [opened, setOpened] = useState<MatrixEval | null>(null);

  const refreshPast = useCallback(() => {
    listMatrices({ limit: 20 }).then(setPast, (caught: Error) => setError(`Could not list past matrices: ${caught.message}`));
  }, []);

  useEffect(() => refreshPast(), [refreshPast]);

  // Follow the open matrix until it has finished. A large matrix is read less often: about 1 s
  // apart at 10,000 evals.
  const detail = useFollowedRecord<MatrixDetail>(openId, {
    load: getMatrix,
    next: (current) => (FINISHED.has(current.matrix.status) ? null : Math.max(REFRESH_MS, Math.min(5_000, current.matrix.plan.evals / 10))),
    onEnd: refreshPast,
    onFailure: (caught) => {
      setError(`Could not open matrix ${openId}: ${caught.message}`);
      dropOpen();
    },
  });

  const open = (id: string | null) => {
    setOpened(null);
    openAddress(id);
  };

  // The request as the page holds it now; a plan is for the request it was made from.
  const request = useMemo<CreateMatrixRequest | null>(
    () =>
      prompts.length === 0 || models.length === 0 || inputs.length === 0
        ? null
        : {
            prompts: prompts.map((pick) =>
              pick.kind === "file" ? { version: pick.version, fileName: pick.fileName, text: pick.text } : { version: pick.version },
            ),
            models,
            inputs: inputs.map(({ id, text }) => ({ id, text })),
          },
    [prompts, models, inputs],
  );
  const plan = planned && planned.request === request ? planned.plan : null;
  const missing = [prompts.length === 0 && "a prompt version", models.length === 0 && "a model", inputs.length === 0 && "an input"].filter(
    Boolean,
  );

  const makePlan = async () => {
    if (!request) return;
    setPlanning(true);
    setError(null);
    try {
      setPlanned({ request, plan: await planMatrixRequest(request) });
    } catch (caught) {
      setPlanned(null);
      setError((caught as Error).message);
    } finally {
      setPlanning(false);
    }
  };

  const run = async () => {
    if (!request || !plan) return;
    setStarting(true);
    setError(null);
    try {
      const created = await createMatrix(request);
      open(created.id);
      refreshPast();
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setStarting(false);
    }
  };

  return (
    <div className="mx-auto flex max-w-[1400px] flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight text-zinc-900">Matrix</h1>
          <p className="text-sm text-zinc-600">
            Every prompt version on every model for every input, with comparisons side by side; the same runner as{" "}
            <code className="font-mono">parallaxr matrix</code>.
          </p>
        </div>
        {openId && (
          <button
            type="button"
            onClick={() => open(null)}
            className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
          >
            New matrix
          </button>
        )}
      </div>
      <EvalsTabs current="/evals/matrix" />

      <ErrorAlert message={error} onDismiss={() => setError(null)} />

      {openId ? (
        <OpenMatrix detail={detail} onOpenEval={setOpened} />
      ) : (
        <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(380px,500px)]">
          <div className="flex min-w-0 flex-col gap-4">
            <PromptVersionsField picks={prompts} onChange={setPrompts} />
            <ModelsField models={models} onChange={setModels} />
            <InputsField inputs={inputs} onChange={setInputs} />
          </div>
          <div className="flex min-w-0 flex-col gap-4">
            <div className="flex flex-col gap-1.5">
              <button
                type="button"
                disabled={!request || planning}
                onClick={() => void makePlan()}
                className="self-start rounded-md border border-accent-strong bg-white px-4 py-2 text-sm font-semibold text-accent-strong hover:bg-accent-soft disabled:cursor-not-allowed disabled:border-zinc-300 disabled:text-zinc-500"
              >
                {planning ? "Planning…" : plan ? "Plan again" : "See the plan"}
              </button>
              <p aria-live="polite" className="text-xs text-zinc-600">
                {missing.length > 0
                  ? `Add ${missing.join(", ")} to plan.`
                  : plan
                    ? "Nothing is sent to a model until you run it."
                    : "The plan counts the evals and estimates their cost; nothing is sent to a model."}
              </p>
            </div>
            {plan && <MatrixPlanView plan={plan} starting={starting} onRun={() => void run()} />}
            <PastMatrices matrices={past} onOpen={open} />
          </div>
        </div>
      )}
      <EvalDialog item={opened} onClose={() => setOpened(null)} />
    </div>
  );
}

const linkClass = "rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-xs font-medium text-zinc-800 hover:bg-zinc-50";

function OpenMatrix({ detail, onOpenEval }: { detail: MatrixDetail | null; onOpenEval(item: MatrixEval): void }) {
  if (!detail) return <p className="text-sm text-zinc-600">Loading the matrix…</p>;
  const { matrix } = detail;
  const { counts, plan } = matrix;
  const finished = counts.ok + counts.warning + counts.error;
  const running = !FINISHED.has(matrix.status);
  const status = running
    ? "Running"
    : matrix.status === "completed"
      ? "Done"
      : `${matrix.status[0].toUpperCase()}${matrix.status.slice(1)}`;
  const costs = detail.evals.filter((item) => item.costUsd !== null);
  const unpriced = detail.evals.filter(
    (item) => item.costUsd === null && FINISHED_EVAL.has(item.status) && item.tokensOutput !== null,
  ).length;
  const spent = costs.reduce((sum, item) => sum + (item.costUsd ?? 0), 0);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-zinc-200 bg-white px-4 py-3">
        <div className="flex min-w-0 flex-col gap-0.5">
          <p className="text-sm font-medium text-zinc-900">
            <span className="font-mono">{matrix.batchId}</span>{" "}
            <span className="font-normal text-zinc-600">
              · {plan.prompts.length} {plan.prompts.length === 1 ? "prompt version" : "prompt versions"} × {plan.models.length}{" "}
              {plan.models.length === 1 ? "model" : "models"} × {plan.inputs.length} {plan.inputs.length === 1 ? "input" : "inputs"}
            </span>
          </p>
          <p aria-live="polite" className="text-sm text-zinc-700">
            {status}: {finished} of {plan.evals} evals · {counts.error} {counts.error === 1 ? "error" : "errors"}
          </p>
          <p className="text-xs text-zinc-600">
            Cost so far: ${spent.toFixed(4)}
            {unpriced > 0 ? ` (not counting ${unpriced} unpriced ${unpriced === 1 ? "eval" : "evals"}: unknown)` : ""} · estimated{" "}
            {plan.estimate.unpricedModels.length === plan.models.length ? "unknown" : `$${plan.estimate.costUsd.toFixed(4)}`}
          </p>
          {!running && counts.ok + counts.warning === 0 && plan.evals > 0 && (
            <p className="text-sm text-red-800">0/{plan.evals} evals succeeded. Check batch summary for errors</p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={matrixZipUrl(matrix.id)} download className={linkClass}>
            Download the batch (.zip)
          </a>
          <a href={matrixSummaryUrl(matrix.id)} download className={linkClass}>
            summary.json
          </a>
        </div>
      </div>
      <MatrixGrid detail={detail} onOpen={onOpenEval} />
      <MatrixComparisons detail={detail} />
    </div>
  );
}

const FINISHED_EVAL = new Set(["ok", "warning", "error", "malformed"]);
