import type { z } from "zod";
import { resolveCaller, type Caller } from "@/lib/auth/resolve-caller";
import { bodyLimitFor, readBodyLimits } from "./body-limits";
import { getAppContext, type AppContext } from "./context";
import { errorResponse } from "./http-errors";
import { readJsonBody } from "./read-json-body";

/** What a handler gets: the caller (null on a public route), the parsed body and path parameters, and the app. */
export interface RouteInput<Body, Params, Public extends boolean = false> {
  request: Request;
  caller: Public extends true ? null : Caller;
  body: Body;
  params: Params;
  app: AppContext;
}

/**
 * Wraps a route handler: resolves the caller (unless `public: true`: a route anyone who reaches
 * the server may call, such as health and sign-in), reads the JSON body within the route's size
 * limit (lib/server/body-limits.ts) and parses it and the path parameters with the given zod
 * schemas, and maps every thrown error to one JSON error answer. A handler returns a Response,
 * or a value sent as JSON with the given status. proxy.ts has checked Host, Origin and
 * Content-Type before any of this runs.
 */
export function route<
  BodySchema extends z.ZodType | undefined,
  ParamsSchema extends z.ZodType | undefined,
  Public extends boolean = false,
>(
  spec: { body?: BodySchema; params?: ParamsSchema; status?: number; public?: Public },
  handler: (
    input: RouteInput<
      BodySchema extends z.ZodType ? z.infer<BodySchema> : undefined,
      ParamsSchema extends z.ZodType ? z.infer<ParamsSchema> : undefined,
      Public
    >,
  ) => Promise<unknown>,
) {
  return async (request: Request, context: { params?: Promise<Record<string, string>> } = {}): Promise<Response> => {
    try {
      const app = await getAppContext();
      const caller = spec.public ? null : await resolveCaller(request, { db: app.db, access: app.access, controlToken: app.controlToken });
      const params = spec.params ? spec.params.parse((await context.params) ?? {}) : undefined;
      let body: unknown = undefined;
      if (spec.body) {
        const limit = bodyLimitFor({ method: request.method, pathname: new URL(request.url).pathname }, readBodyLimits());
        body = spec.body.parse(await readJsonBody(request, limit));
      }
      const result = await handler({ request, caller, body, params, app } as never);
      return result instanceof Response ? result : Response.json(result, { status: spec.status ?? 200 });
    } catch (error) {
      return errorResponse(error);
    }
  };
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
