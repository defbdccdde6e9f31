import { redirect } from "next/navigation";

/** Settings has one page so far: the provider keys. */
export default function SettingsPage() {
  redirect("/settings/keys");
}
