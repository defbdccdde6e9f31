import type { Metadata } from "next";
import { LimitsSettings } from "@/components/settings/limits-settings";

export const metadata: Metadata = { title: "Rate limits · Parallaxr" };

/** Settings -> Limits: per provider, max concurrent requests, requests and tokens per minute. */
export default function LimitsSettingsPage() {
  return <LimitsSettings />;
}
