import { modelCatalogSchema } from "@/lib/api/responses";
import { asUser } from "@/lib/db/as-user";
import { priceBook, recordFetchedPrices } from "@/lib/db/pricing/pricing";
import { applicablePrice } from "@/lib/engine/applicable-price";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * The models the column picker offers the caller: the mock and local models, and the models of
 * every vendor the caller has a key for, each with its price per million tokens when known (the
 * caller's own, else a vendor's live list, else the shipped reference); providers lists every
 * provider and whether it is configured, unavailable says which vendors could not be asked and why.
 * Prices read from a vendor's list (OpenRouter's) are recorded so that runs are priced by them.
 */
export const GET = route({ output: modelCatalogSchema }, async ({ caller, app }) => {
  const catalog = await app.providers.listModelsFor(caller.userId);
  const live = catalog.models.filter((model) => model.provider === "openrouter" && model.price);
  const book = await asUser(app.db, caller.userId, async (tx) => {
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
});
