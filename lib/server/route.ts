import type { z } from "zod";
import { resolveCaller, type Caller } from "@/lib/auth/resolve-caller";
import { bodyLimitFor, readBodyLimits } from "./body-limits.mjs";
import { getAppContext, type AppContext } from "./context";
import { errorResponse, HttpError } from "./http-errors";
import { readJsonBody } from "./read-json-body";

/** What a handler gets: the caller (null on a public route), the parsed body, query and path parameters, and the app. */
export interface RouteInput<Body, Query, Params, Public extends boolean = false> {
  request: Request;
  caller: Public extends true ? null : Caller;
  body: Body;
  query: Query;
  params: Params;
  app: AppContext;
}

type Parsed<Schema> = Schema extends z.ZodType ? z.infer<Schema> : undefined;

/** What a route takes and answers: each schema is optional; without `output` the handler answers a Response. */
export interface RouteSpec<BodySchema, QuerySchema, ParamsSchema, OutputSchema, Public extends boolean> {
  body?: BodySchema;
  /** The URL's query parameters, strings in; a route without it takes none. */
  query?: QuerySchema;
  params?: ParamsSchema;
  /** The JSON answer, checked outside production (see checksOutput). */
  output?: OutputSchema;
  /** The status of a JSON answer (200 by default), or a function of the parsed query. */
  status?: number | ((query: Parsed<QuerySchema>) => number);
  public?: Public;
}

/**
 * Wraps a route handler: resolves the caller (unless `public: true`: a route anyone who reaches
 * the server may call, such as health and sign-in), reads the JSON body within the route's size
 * limit (lib/server/body-limits.mjs) and parses it, the query and the path parameters with the
 * given zod schemas, and maps every thrown error to one JSON error answer. A handler returns a
 * value of the `output` schema, sent as JSON with the given status, or a Response of its own
 * (files, event streams, cookies), sent as is. proxy.ts has checked Host, Origin and Content-Type
 * before any of this runs.
 *
 * Query parameters are strict like bodies: one the `query` schema does not name is a 400, and a
 * route without a `query` schema takes none. Parameters starting with "_" are left to whoever
 * added them (cache-busters such as `_=1700000000`, Next.js's own `_rsc`) and never reach a schema.
 */
export function route<
  BodySchema extends z.ZodType | undefined = undefined,
  QuerySchema extends z.ZodType | undefined = undefined,
  ParamsSchema extends z.ZodType | undefined = undefined,
  OutputSchema extends z.ZodType | undefined = undefined,
  Public extends boolean = false,
>(
  spec: RouteSpec<BodySchema, QuerySchema, ParamsSchema, OutputSchema, Public>,
  handler: (
    input: RouteInput<Parsed<BodySchema>, Parsed<QuerySchema>, Parsed<ParamsSchema>, Public>,
  ) => Promise<(OutputSchema extends z.ZodType ? z.input<OutputSchema> : never) | Response>,
) {
  return async (request: Request, context: { params?: Promise<Record<string, string>> } = {}): Promise<Response> => {
    try {
      const url = new URL(request.url);
      const app = await getAppContext();
      const caller = spec.public ? null : await resolveCaller(request, { db: app.db, access: app.access, controlToken: app.controlToken });
      const params = spec.params ? spec.params.parse((await context.params) ?? {}) : undefined;
      const query = parseQuery(url.searchParams, spec.query);
      let body: unknown = undefined;
      if (spec.body) {
        const limit = bodyLimitFor({ method: request.method, pathname: url.pathname }, readBodyLimits());
        body = spec.body.parse(await readJsonBody(request, limit));
      }
      const result = await handler({ request, caller, body, query, params, app } as never);
      if (result instanceof Response) return result;
      if (spec.output && checksOutput()) checkOutput(spec.output, result, `${request.method} ${url.pathname}`);
      const status = typeof spec.status === "function" ? spec.status(query as never) : (spec.status ?? 200);
      return Response.json(result, { status });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** The query parameters, parsed by the route's schema; none are taken without one. */
function parseQuery(searchParams: URLSearchParams, schema: z.ZodType | undefined): unknown {
  const values: Record<string, string> = {};
  for (const [key, value] of searchParams) {
    if (key.startsWith("_")) continue;
    if (!schema) throw new HttpError("bad_request", `unknown query parameter "${key}": this route takes none`, key);
    if (key in values) throw new HttpError("bad_request", `${key}: give it once, not several times`, key);
    values[key] = value;
  }
  return schema?.parse(values);
}

/**
 * Outside production every JSON answer is parsed by its route's output schema: the tests and the
 * dev server find an answer that drifted from lib/api/responses.ts at the route that sent it.
 * Production skips it (a run of 40,000 cells is tens of megabytes to walk) unless
 * PARALLAXR_CHECK_RESPONSES=1 asks for it, as the e2e server does.
 */
function checksOutput(): boolean {
  return process.env.NODE_ENV !== "production" || process.env.PARALLAXR_CHECK_RESPONSES === "1";
}

/** Throws an internal error naming the route and the first mismatch, checking the answer as JSON sends it. */
function checkOutput(schema: z.ZodType, result: unknown, routeName: string): void {
  const checked = schema.safeParse(result === undefined ? undefined : JSON.parse(JSON.stringify(result)));
  if (checked.success) return;
  const mismatch = checked.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "(answer)"}: ${issue.message}`)
    .join("; ");
  throw new HttpError("internal", `The answer of ${routeName} does not match its output schema: ${mismatch}`);
}

/**
 * A file to download: `Content-Disposition: attachment` (the browser saves it and never renders
 * it as a page of this origin, whatever it holds), its type, and no sniffing. Every route that
 * answers a file answers through this.
 */
export function fileResponse(body: BodyInit, { filename, contentType }: { filename: string; contentType: string }): Response {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return new Response(body, {
    headers: {
      "content-type": contentType,
      "content-disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    },
  });
}
