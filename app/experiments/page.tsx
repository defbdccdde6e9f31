import type { Metadata } from "next";
import { AppHeader } from "@/components/layout/app-header";
import { ExperimentsPage } from "@/components/experiments/experiments-page";

export const metadata: Metadata = { title: "Experiments · Parallaxr" };

/** /experiments: run an experiments CSV (the `parallaxr run` of the experiments spec) from the browser. */
export default function Experiments() {
  return (
    <div className="flex h-full flex-col">
      <AppHeader />
      <main className="relative min-h-0 flex-1 overflow-y-auto px-5 py-6">
        <ExperimentsPage />
      </main>
    </div>
  );
}
