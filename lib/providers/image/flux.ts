import { classifyHttpFailure, rethrowAsProviderError, type ErrorContext } from "../adapters/classify-error";
import { isProviderError, ProviderError } from "../provider-error";
import type { ModelInfo } from "../types";
import { describeImage } from "./describe-image";
import type { ImageAdapterOptions } from "./image-adapter-options";
import {
  refuseWhatCannotBeMade,
  withCallSignal,
  checkVendorUrl,
  definedFields,
  imageFetch,
  isRecord,
  malformed,
  sendImageRequest,
  withoutQuery,
} from "./image-http";
import { ImageProviderError } from "./image-provider-error";
import { parseSize } from "./size";
import type { ImageModelProvider } from "./types";

/** How long between polls of a pending request; BFL's own examples poll every 0.5 s. */
const DEFAULT_POLL_INTERVAL_MS = 500;
/** A finished FLUX image is a few MB (a 4 MP PNG is about 8 MB); past this the download is refused. */
export const MAX_FLUX_DOWNLOAD_BYTES = 40 * 1024 * 1024;
/** A polling answer is a small JSON object. */
const MAX_POLL_BYTES = 1024 * 1024;

/** Polls in a row that may fail with a 429, a 5xx or a broken connection before the job fails. */
const MAX_TRANSIENT_POLL_FAILURES = 5;

const pendingStatuses = new Set(["Pending", "Queued", "Processing"]);
const moderatedStatuses = new Set(["Request Moderated", "Content Moderated"]);

/**
 * Black Forest Labs' asynchronous API: POST {base}/v1/{model} with the key in `x-key` answers
 * {id, polling_url}; GET polling_url until its status is Ready; then download result.sample, a
 * signed URL that expires after a few minutes.
 *
 * The key goes only to the host it was saved for. The polling and result URLs come from the
 * answer, so they are whatever the answer says: each must pass the base URL policy (http(s), no
 * credentials, no private address unless this server may call its own network, also after name
 * resolution), is fetched without the key unless it is on the saved host itself, follows no
 * redirect, and a download past maxDownloadBytes is cut off and refused.
 */
export function createFluxImageProvider(options: ImageAdapterOptions): ImageModelProvider {
  const submitFetch = imageFetch(options, "Black Forest Labs", MAX_POLL_BYTES);
  const pollFetch = imageFetch(options, "Black Forest Labs (polling URL)", MAX_POLL_BYTES);
  const downloadFetch = imageFetch(options, "Black Forest Labs (result URL)", options.maxDownloadBytes ?? MAX_FLUX_DOWNLOAD_BYTES);
  // People paste the API root with or without its version: https://api.bfl.ai or .../v1.
  const root = options.baseURL.replace(/\/+$/, "").replace(/\/v1$/, "");
  const savedOrigin = new URL(root).origin;
  const allowPrivate = options.allowPrivateAddresses !== false;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const keyHeader = (url: URL): Record<string, string> => (options.apiKey && url.origin === savedOrigin ? { "x-key": options.apiKey } : {});

  return {
    id: "flux",
    kind: "image",

    generate: (request) =>
      withCallSignal(request, "Black Forest Labs", async (signal) => {
        refuseWhatCannotBeMade("flux", request);
        const started = performance.now();
        const context: ErrorContext = { provider: "Black Forest Labs", model: request.model, apiKey: options.apiKey, signal };
        const warnings: string[] = [];
        const body: Record<string, unknown> = {
          prompt: request.prompt,
          ...sizeFields(request.size),
          ...definedFields({ seed: request.seed, output_format: request.outputFormat }),
          ...request.providerOptions,
        };
        if (request.quality) warnings.push(`FLUX has no quality setting: quality "${request.quality}" was not sent.`);
        if (request.background) warnings.push(`FLUX has no background setting: background "${request.background}" was not sent.`);
        const endpoint = `${root}/v1/${encodeURIComponent(request.model)}`;
        const submitted = await sendImageRequest({
          url: endpoint,
          method: "POST",
          body,
          headers: keyHeader(new URL(endpoint)),
          fetch: submitFetch,
          signal,
          context,
        });
        const task = submitted.body;
        if (!isRecord(task) || typeof task.id !== "string") throw malformed(context, "a submission answer without an id");
        // An answer without polling_url (BFL's API before regional endpoints) is polled at the saved host.
        const pollingUrl =
          task.polling_url === undefined
            ? new URL(`${root}/v1/get_result?id=${encodeURIComponent(task.id)}`)
            : checkVendorUrl(task.polling_url, { label: "Black Forest Labs", what: "polling URL", allowPrivate });

        let polled: Record<string, unknown>;
        let transientFailures = 0;
        for (;;) {
          let answer: Awaited<ReturnType<typeof sendImageRequest>>;
          try {
            answer = await sendImageRequest({ url: pollingUrl.href, headers: keyHeader(pollingUrl), fetch: pollFetch, signal, context });
          } catch (error) {
            // The image is paid for at submission: a poll that hits a 429 or a 5xx waits and polls
            // again (within the call's timeout) rather than fail the job, whose retry would submit
            // and pay again. Past a few in a row the host is down, and that is the job's failure.
            if (
              isProviderError(error) &&
              (error.code === "rate_limited" || error.code === "server" || error.code === "network") &&
              error.retryable
            ) {
              transientFailures += 1;
              if (transientFailures <= MAX_TRANSIENT_POLL_FAILURES) {
                await pause(error.retryAfterMs ?? pollIntervalMs * 4, signal, context);
                continue;
              }
            }
            throw pollingAuthError(error, pollingUrl, savedOrigin) ?? error;
          }
          transientFailures = 0;
          if (!isRecord(answer.body) || typeof answer.body.status !== "string")
            throw malformed(context, "a polling answer without a status");
          const status = answer.body.status;
          if (status === "Ready") {
            polled = answer.body;
            break;
          }
          if (moderatedStatuses.has(status)) {
            throw new ImageProviderError({ kind: "content_policy", message: `Black Forest Labs refused the request (${status}).` });
          }
          if (status === "Error" || status === "Failed") {
            throw new ProviderError({
              code: "server",
              message: `Black Forest Labs could not make the image (${status}${detailOf(answer.body)}).`,
            });
          }
          if (!pendingStatuses.has(status)) throw malformed(context, `a polling status it does not document ("${status.slice(0, 60)}")`);
          await pause(pollIntervalMs, signal, context);
        }

        const result = isRecord(polled.result) ? polled.result : null;
        const sampleUrl = checkVendorUrl(result?.sample, { label: "Black Forest Labs", what: "result URL", allowPrivate });
        const bytes = await download(sampleUrl, downloadFetch, signal, context);
        const image = await describeImage(bytes, "Black Forest Labs");
        const { sample: _sample, ...resultFields } = result ?? {};
        return {
          images: [image],
          warnings,
          receipt: {
            provider: "flux",
            model: request.model,
            endpoint,
            request: body,
            response: {
              id: task.id,
              status: polled.status,
              polling_url: withoutQuery(pollingUrl.href),
              sample_url: withoutQuery(sampleUrl.href),
              result: resultFields,
            },
            usage: usageOf(task),
            // BFL states cost in credits, not dollars: usage carries it, the price reference the dollars.
            costUsd: null,
            latencyMs: Math.round(performance.now() - started),
          },
        };
      }),

    async listModels(): Promise<ModelInfo[]> {
      return ["flux-2-pro", "flux-2-flex", "flux-2-max", "flux-pro-1.1", "flux-pro-1.1-ultra", "flux-kontext-pro"].map((model) => ({
        provider: "flux",
        model,
        label: model,
      }));
    },
  };
}

/** FLUX takes pixels as width and height, and an aspect ratio as aspect_ratio (the Ultra and Kontext models). */
function sizeFields(size: string | null | undefined): Record<string, unknown> {
  // Checked by refuseWhatCannotBeMade: a size here parses.
  const parsed = size ? parseSize(size) : null;
  if (!parsed) return {};
  return parsed.kind === "pixels" ? { width: parsed.width, height: parsed.height } : { aspect_ratio: `${parsed.width}:${parsed.height}` };
}

async function download(url: URL, fetch: typeof globalThis.fetch, signal: AbortSignal, context: ErrorContext): Promise<Uint8Array> {
  try {
    // No key, no cookies: the signed URL is its own credential.
    const response = await fetch(url.href, { signal });
    if (!response.ok) {
      const text = await response.text();
      throw classifyHttpFailure({ status: response.status, body: text, headers: Object.fromEntries(response.headers.entries()), context });
    }
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    rethrowAsProviderError(error, context);
  }
}

/**
 * A polling host other than the saved one that asks for the key: it was not sent there, and will
 * not be, so say how to make it the saved host instead of blaming the key.
 */
function pollingAuthError(error: unknown, pollingUrl: URL, savedOrigin: string): ProviderError | null {
  if (!isProviderError(error) || error.code !== "auth" || pollingUrl.origin === savedOrigin) return null;
  return new ProviderError({
    code: "auth",
    statusCode: error.statusCode,
    message:
      `Black Forest Labs' polling URL at ${pollingUrl.host} asked for the key, which is only sent to the host it was saved for (${savedOrigin}): ` +
      `save the key in Settings -> Keys with the base URL ${pollingUrl.origin} (or set FLUX_BASE_URL to it) to use that host.`,
  });
}

function usageOf(task: Record<string, unknown>): Record<string, unknown> | null {
  const usage = definedFields({ cost_credits: task.cost, input_mp: task.input_mp, output_mp: task.output_mp });
  return Object.keys(usage).length > 0 ? usage : null;
}

function detailOf(body: Record<string, unknown>): string {
  const detail = isRecord(body.details) ? JSON.stringify(body.details) : typeof body.error === "string" ? body.error : "";
  return detail ? `: ${detail.slice(0, 200)}` : "";
}

function pause(ms: number, signal: AbortSignal, context: ErrorContext): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(timedOut(context));
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(timedOut(context));
      },
      { once: true },
    );
  });
}

function timedOut(context: ErrorContext): ProviderError {
  return new ProviderError({
    code: "timeout",
    message: `${context.provider} (${context.model}) did not finish the image before the call's time ran out.`,
  });
}
