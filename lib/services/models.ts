import type { ModelCatalog } from "@/lib/api/responses";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { priceBook, recordFetchedPrices } from "@/lib/db/pricing/pricing";
import { applicablePrice } from "@/lib/engine/applicable-price";
import type { ProviderRegistry } from "@/lib/providers/registry";

/**
 * The models the column picker offers userId: the mock and local models, and the models of every
 * vendor they have a key for, each with its price per million tokens when known (their own, else
 * a vendor's live list, else the shipped reference). Prices read from a vendor's list
 * (OpenRouter's) are recorded so that runs are priced by them.
 */
export async function listModelCatalog(
  { db, providers }: { db: Database; providers: ProviderRegistry },
  { userId }: { userId: string },
): Promise<ModelCatalog> {
  const catalog = await providers.listModelsFor(userId);
  const live = catalog.models.filter((model) => model.provider === "openrouter" && model.price);
  const book = await asUser(db, userId, async (tx) => {
    await recordFetchedPrices(tx, {
      source: "openrouter",
      prices: live.map((model) => ({
        provider: model.provider,
        model: model.model,
        inputPerMTok: model.price!.inputPerMTok,
        outputPerMTok: model.price!.outputPerMTok,
      })),
    });
    return priceBook(tx);
  });
  const models = catalog.models.map((model) => {
    const price = applicablePrice({
      provider: model.provider,
      model: model.model,
      stored: book.get(`${model.provider}/${model.model}`) ?? null,
      listed: model.price ?? null,
    });
    return { ...model, price: price ? { inputPerMTok: price.inputPerMTok, outputPerMTok: price.outputPerMTok } : null };
  });
  return { ...catalog, models };
}
