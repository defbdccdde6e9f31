import http from "node:http";

/** A web page served from another origin than the app, as an attacker's site would be. */
export interface AttackSite {
  url: string;
  close(): Promise<void>;
}

/** Serves html at http://127.0.0.1:port/ (another origin: the app is on another port). */
export async function startAttackSite({ port, html }: { port: number; html: string }): Promise<AttackSite> {
  const server = http.createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(html);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
