import type { Metadata } from "next";
import { KeysSettings } from "@/components/settings/keys-settings";

export const metadata: Metadata = { title: "API keys · Parallaxr" };

/** Settings -> Keys: one row per provider, to save, test and remove its key. */
export default function KeysSettingsPage() {
  return <KeysSettings />;
}
