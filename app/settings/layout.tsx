import { AppHeader } from "@/components/layout/app-header";

/**
 * Every settings page: the shared header, then the page in a scroll box of its own, so the
 * header stays in view and never covers a focused control (as a sticky header can).
 */
export default function SettingsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex h-full flex-col">
      <AppHeader />
      {/* relative: visually hidden labels are positioned inside the scroll box, not the window. */}
      <main className="relative min-h-0 flex-1 overflow-y-auto px-5 py-8">{children}</main>
    </div>
  );
}
