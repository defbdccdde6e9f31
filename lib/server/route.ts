import type { z } from "zod";
import { resolveCaller, type Caller } from "@/lib/auth/resolve-caller";
import { getAppContext, type AppContext } from "./context";
import { errorResponse, HttpError } from "./http-errors";

/** What a handler gets: the caller, the parsed body and path parameters, and the app. */
export interface RouteInput<Body, Params> {
  request: Request;
  caller: Caller;
  body: Body;
  params: Params;
  app: AppContext;
}

/**
 * Wraps a route handler: resolves the caller, parses the JSON body and path parameters with the
 * given zod schemas, and maps every thrown error to one JSON error answer. A handler returns a
 * Response, or a value sent as JSON with the given status.
 */
export function route<BodySchema extends z.ZodType | undefined, ParamsSchema extends z.ZodType | undefined>(
  spec: { body?: BodySchema; params?: ParamsSchema; status?: number },
  handler: (
    input: RouteInput<
      BodySchema extends z.ZodType ? z.infer<BodySchema> : undefined,
      ParamsSchema extends z.ZodType ? z.infer<ParamsSchema> : undefined
    >,
  ) => Promise<unknown>,
) {
  return async (request: Request, context: { params?: Promise<Record<string, string>> } = {}): Promise<Response> => {
    try {
      const app = await getAppContext();
      const caller = await resolveCaller(request, { db: app.db, access: app.access, controlToken: app.controlToken });
      const params = spec.params ? spec.params.parse((await context.params) ?? {}) : undefined;
      let body: unknown = undefined;
      if (spec.body) {
        let json: unknown;
        try {
          json = await request.json();
        } catch {
          throw new HttpError("bad_request", "The request body is not valid JSON.");
        }
        body = spec.body.parse(json);
      }
      const result = await handler({ request, caller, body, params, app } as never);
      return result instanceof Response ? result : Response.json(result, { status: spec.status ?? 200 });
    } catch (error) {
      return errorResponse(error);
    }
  };
}
