import type { Metadata } from "next";
import { PricesSettings } from "@/components/settings/prices-settings";

export const metadata: Metadata = { title: "Prices · Parallaxr" };

/** Settings -> Prices: the person's prices per model and the shipped reference list. */
export default function PricesSettingsPage() {
  return <PricesSettings />;
}
