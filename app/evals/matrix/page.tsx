import type { Metadata } from "next";
import { AppHeader } from "@/components/layout/app-header";
import { MatrixPage } from "@/components/matrix/matrix-page";

export const metadata: Metadata = { title: "Matrix · Evals · Parallaxr" };

/** /evals/matrix: prompt versions x models x inputs (the `parallaxr matrix` of specs/matrix-comparisons.md) from the browser. */
export default function Matrix() {
  return (
    <div className="flex h-full flex-col">
      <AppHeader />
      <main className="relative min-h-0 flex-1 overflow-y-auto px-5 py-6">
        <MatrixPage />
      </main>
    </div>
  );
}
