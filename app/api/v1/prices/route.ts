import { deletedSchema, priceListSchema, savedSchema } from "@/lib/api/responses";
import { priceKeySchema, savePriceSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { deleteUserPrice, listUserPrices, upsertUserPrice } from "@/lib/db/pricing/pricing";
import { pricingReference } from "@/lib/providers/pricing-reference";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** The caller's prices, and the shipped reference (with the date it was checked) they override. */
export const GET = route({ output: priceListSchema }, async ({ caller, app }) => ({
  prices: await asUser(app.db, caller.userId, (tx) => listUserPrices(tx)),
  reference: pricingReference,
}));

/** Sets the caller's price of one model, per million tokens in and out. */
export const PUT = route({ body: savePriceSchema, output: savedSchema }, async ({ caller, body, app }) => {
  await asUser(app.db, caller.userId, (tx) => upsertUserPrice(tx, { ...body, perImage: body.perImage ?? null }));
  return { saved: true as const };
});

/** DELETE /api/v1/prices?provider=...&model=...: the reference price, if any, applies again. */
export const DELETE = route({ query: priceKeySchema, output: deletedSchema }, async ({ caller, query: key, app }) => {
  const deleted = await asUser(app.db, caller.userId, (tx) => deleteUserPrice(tx, key));
  if (!deleted) throw new HttpError("not_found", `No price of yours for ${key.provider}/${key.model}.`);
  return { deleted: true as const };
});
