import type { Metadata } from "next";
import { AppHeader } from "@/components/layout/app-header";
import { BatchesPage } from "@/components/batches/batches-page";

export const metadata: Metadata = { title: "Batches · Parallaxr" };

/** /batches: image batch runs (the `parallaxr batch-run` of specs/image-batch-runs.md) from the browser. */
export default function Batches() {
  return (
    <div className="flex h-full flex-col">
      <AppHeader />
      <main className="relative min-h-0 flex-1 overflow-y-auto px-5 py-6">
        <BatchesPage />
      </main>
    </div>
  );
}
