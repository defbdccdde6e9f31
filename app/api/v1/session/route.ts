import { signInSchema } from "@/lib/api/schemas";
import { sessionCookieName } from "@/lib/auth/access-config";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

// A browser session lasts as long as its token, at most 30 days before signing in again.
const maxAgeSeconds = 30 * 24 * 3600;

/**
 * Signs a browser in: checks the token as every request does, then keeps it in a cookie the
 * page's scripts cannot read (HttpOnly) and other sites' requests do not carry (SameSite=Strict).
 */
export const POST = route({ body: signInSchema, public: true }, async ({ request, body, app }) => {
  await resolveCaller(new Request(request.url, { headers: { authorization: `Bearer ${body.token}` } }), { db: app.db, access: app.access });
  const secure = new URL(request.url).protocol === "https:" || app.access.publicUrl?.protocol === "https:";
  const cookie = [
    `${sessionCookieName}=${encodeURIComponent(body.token)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ["Secure"] : []),
  ];
  return Response.json({ signedIn: true }, { headers: { "set-cookie": cookie.join("; "), "cache-control": "no-store" } });
});

/** Signs the browser out: the cookie is cleared (the token itself stays valid until revoked). */
export const DELETE = route({ public: true }, async () =>
  Response.json({ signedIn: false }, { headers: { "set-cookie": `${sessionCookieName}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0` } }),
);
