import Link from "next/link";

const TABS = [
  { href: "/evals", label: "Eval configs" },
  { href: "/evals/matrix", label: "Matrix" },
] as const;

/** The two views of /evals: eval configs and the matrix of prompt versions x models x inputs. */
export function EvalsTabs({ current }: { current: "/evals" | "/evals/matrix" }) {
  return (
    <nav aria-label="Evals views">
      <ul className="flex gap-1 border-b border-zinc-200">
        {TABS.map((tab) => (
          <li key={tab.href} className="flex">
            <Link
              href={tab.href}
              aria-current={tab.href === current ? "page" : undefined}
              className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${
                tab.href === current
                  ? "border-accent-strong font-medium text-zinc-900"
                  : "border-transparent text-zinc-600 hover:text-zinc-900"
              }`}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
