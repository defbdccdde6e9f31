"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The places the header links to; a link is current on its path and everything under its section. */
const NAV_LINKS = [
  { href: "/", label: "Workbench", section: "/" },
  { href: "/experiments", label: "Experiments", section: "/experiments" },
  { href: "/evals", label: "Evals", section: "/evals" },
  { href: "/batches", label: "Batches", section: "/batches" },
  { href: "/settings/keys", label: "Settings", section: "/settings" },
] as const;

/** The settings pages, linked beside "Settings" while one of them is open. */
const SETTINGS_LINKS = [
  { href: "/settings/keys", label: "Keys" },
  { href: "/settings/prices", label: "Prices" },
  { href: "/settings/limits", label: "Limits" },
] as const;

/** The top bar every page shares: the name, links to the workbench and the settings, and the settings pages. */
export function AppHeader() {
  const pathname = usePathname() ?? "/";
  return (
    <header className="flex h-12 shrink-0 items-center gap-6 border-b border-zinc-200 bg-white px-5">
      <span className="text-[15px] font-semibold tracking-tight text-zinc-900">Parallaxr</span>
      <nav aria-label="Main" className="flex h-full items-stretch">
        <ul className="flex h-full items-stretch gap-1">
          {NAV_LINKS.map((link) => {
            const current = link.section === "/" ? pathname === "/" : pathname.startsWith(link.section);
            return (
              <li key={link.href} className="flex">
                <Link
                  href={link.href}
                  aria-current={current ? "page" : undefined}
                  className={`relative flex items-center px-2.5 text-sm focus-visible:outline-offset-[-4px] ${
                    current
                      ? "font-medium text-zinc-900 after:absolute after:inset-x-2.5 after:-bottom-px after:h-0.5 after:rounded-full after:bg-accent-strong"
                      : "text-zinc-600 hover:text-zinc-900"
                  }`}
                >
                  {link.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {pathname.startsWith("/settings") && (
        <nav aria-label="Settings pages" className="flex h-full items-center border-l border-zinc-200 pl-4">
          <ul className="flex items-center gap-1">
            {SETTINGS_LINKS.map((link) => {
              const current = pathname.startsWith(link.href);
              return (
                <li key={link.href}>
                  <Link
                    href={link.href}
                    aria-current={current ? "page" : undefined}
                    className={`flex h-7 items-center rounded-md px-2.5 text-sm ${
                      current ? "bg-accent-soft font-medium text-accent-strong" : "text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
                    }`}
                  >
                    {link.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      )}
    </header>
  );
}
