import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A Next route handler as the app exports it. */
export type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** method, path pattern (its groups are the params), the params' names, the handler. */
export type ServedRoute = [string, RegExp, string[], RouteHandler];
/** A request as it reached the served routes. */
export interface ReceivedRequest {
  method: string;
  path: string;
  body: string;
}

/**
 * Serves route handlers over real HTTP on a free loopback port, so a CLI subprocess can talk to
 * them as to a server: each request becomes a Request for the first route whose method and pattern
 * match (404 otherwise), and is recorded in `received` (path with its query, body as text).
 */
export async function serveRouteHandlers(routes: readonly ServedRoute[]) {
  const received: ReceivedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const parts: Buffer[] = [];
    incoming.on("data", (part: Buffer) => parts.push(part));
    incoming.on("end", async () => {
      const body = Buffer.concat(parts).toString("utf8");
      const requestUrl = new URL(incoming.url ?? "/", "http://127.0.0.1");
      received.push({ method: incoming.method ?? "GET", path: requestUrl.pathname + requestUrl.search, body });
      const match = routes
        .map(([method, pattern, names, handler]) => ({ method, found: pattern.exec(requestUrl.pathname), names, handler }))
        .find((route) => route.method === incoming.method && route.found);
      if (!match) {
        outgoing.writeHead(404).end();
        return;
      }
      const params = Object.fromEntries(match.names.map((name, index) => [name, decodeURIComponent(match.found![index + 1])]));
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
      const response = await match.handler(
        new Request(`http://127.0.0.1${incoming.url}`, { method: incoming.method, headers, body: body === "" ? undefined : body }),
        { params: Promise.resolve(params) },
      );
      outgoing.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
