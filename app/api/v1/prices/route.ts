import { deletedSchema, priceListSchema, savedSchema } from "@/lib/api/responses";
import { priceKeySchema, savePriceSchema } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { deletePrice, listPrices, savePrice } from "@/lib/services/prices";

export const dynamic = "force-dynamic";

/** The caller's prices, and the shipped reference (with the date it was checked) they override. */
export const GET = route({ output: priceListSchema }, ({ caller, app }) => listPrices(app, { userId: caller.userId }));

/** Sets the caller's price of one model, per million tokens in and out. */
export const PUT = route({ body: savePriceSchema, output: savedSchema }, ({ caller, body, app }) =>
  savePrice(app, { userId: caller.userId, price: body }),
);

/** DELETE /api/v1/prices?provider=...&model=...: the reference price, if any, applies again. */
export const DELETE = route({ query: priceKeySchema, output: deletedSchema }, ({ caller, query: key, app }) =>
  deletePrice(app, { userId: caller.userId, key }),
);
