import type { z } from "zod";
import type { UserPrice } from "@/lib/api/responses";
import type { priceKeySchema, savePriceSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { deleteUserPrice, listUserPrices, upsertUserPrice } from "@/lib/db/pricing/pricing";
import { NotFoundError } from "@/lib/engine/errors";
import { pricingReference } from "@/lib/providers/pricing-reference";

/** userId's prices, and the shipped reference (with the date it was checked) they override. */
export async function listPrices(
  { db }: { db: Database },
  { userId }: { userId: string },
): Promise<{ prices: UserPrice[]; reference: typeof pricingReference }> {
  return { prices: await asUser(db, userId, (tx) => listUserPrices(tx)), reference: pricingReference };
}

/** Sets userId's price of one model, per million tokens in and out (and per image). */
export async function savePrice(
  { db }: { db: Database },
  { userId, price }: { userId: string; price: z.infer<typeof savePriceSchema> },
): Promise<{ saved: true }> {
  await asUser(db, userId, (tx) => upsertUserPrice(tx, { ...price, perImage: price.perImage ?? null }));
  return { saved: true };
}

/** Removes userId's price of one model: the reference price, if any, applies again. */
export async function deletePrice(
  { db }: { db: Database },
  { userId, key }: { userId: string; key: z.infer<typeof priceKeySchema> },
): Promise<{ deleted: true }> {
  const deleted = await asUser(db, userId, (tx) => deleteUserPrice(tx, key));
  if (!deleted) throw new NotFoundError(`No price of yours for ${key.provider}/${key.model}.`);
  return { deleted: true };
}
