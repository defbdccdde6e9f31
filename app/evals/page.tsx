import type { Metadata } from "next";
import { AppHeader } from "@/components/layout/app-header";
import { EvalsPage } from "@/components/evals/evals-page";

export const metadata: Metadata = { title: "Evals · Parallaxr" };

/** /evals: run an eval config (the `parallaxr eval` of specs/eval-config.md) from the browser. */
export default function Evals() {
  return (
    <div className="flex h-full flex-col">
      <AppHeader />
      <main className="relative min-h-0 flex-1 overflow-y-auto px-5 py-6">
        <EvalsPage />
      </main>
    </div>
  );
}
