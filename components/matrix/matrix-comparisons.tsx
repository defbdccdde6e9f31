"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { MatrixDetail } from "@/lib/api/matrix";
import { matrixComparisonUrl, readComparison } from "./matrix-api";
import { parseComparison, parseComparisonIndex, type ComparisonDocument, type ComparisonIndex } from "./parse-comparison";

const linkClass = "rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-xs font-medium text-zinc-800 hover:bg-zinc-50";

/**
 * The batch's comparisons: index.md as its lists of links, and the comparison opened from it laid
 * out as its markdown is (front matter, title, shared facts, then the evals side by side, each
 * with its facts and its output in a <pre>). Every part is a text element; nothing of the markdown
 * or of a model's output is ever read as HTML.
 */
export function MatrixComparisons({ detail }: { detail: MatrixDetail }) {
  const { id } = detail.matrix;
  const names = detail.comparisons;
  const hasIndex = names.includes("index");
  const [index, setIndex] = useState<ComparisonIndex | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [opened, setOpened] = useState<ComparisonDocument | null>(null);
  const [loading, setLoading] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Set when a comparison the person asked for has loaded: it is read from its title on, so a
  // keyboard or screen reader user lands there once it is drawn.
  const focusTitle = useRef(false);
  const headingId = useId();

  useEffect(() => {
    setIndex(null);
    setChosen(null);
    setOpened(null);
    if (!hasIndex) return;
    let stopped = false;
    readComparison(id, "index").then(
      (markdown) => !stopped && setIndex(parseComparisonIndex(markdown)),
      (caught: Error) => !stopped && setProblem(`Could not read index.md: ${caught.message}`),
    );
    return () => {
      stopped = true;
    };
  }, [id, hasIndex]);

  useEffect(() => {
    if (!opened || !focusTitle.current) return;
    focusTitle.current = false;
    headingRef.current?.focus();
  }, [opened]);

  const open = (name: string) => {
    setChosen(name);
    setOpened(null);
    setProblem(null);
    setLoading(true);
    readComparison(id, name).then(
      (markdown) => {
        setOpened(parseComparison(markdown));
        setLoading(false);
        focusTitle.current = true;
      },
      (caught: Error) => {
        setProblem(`Could not read ${name}.md: ${caught.message}`);
        setLoading(false);
      },
    );
  };

  // The index's links, or the folder names when the index could not be read.
  const groups =
    index?.groups ??
    (problem && !chosen
      ? [{ heading: "Comparisons", links: names.filter((name) => name !== "index").map((name) => ({ text: name, name })), empty: null }]
      : []);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-sm font-semibold text-zinc-900">
          Comparisons
        </h2>
        {hasIndex && (
          <a href={matrixComparisonUrl(id, "index")} download className={linkClass}>
            index.md
          </a>
        )}
      </div>
      {!hasIndex ? (
        <p className="text-sm text-zinc-600">
          {["completed", "cancelled", "failed"].includes(detail.matrix.status)
            ? "This batch made no comparisons."
            : "Comparisons are made once the batch has finished."}
        </p>
      ) : index === null && !problem ? (
        <p className="text-sm text-zinc-600">Loading index.md…</p>
      ) : (
        <>
          {index?.generated && <p className="text-xs text-zinc-600">Generated: {index.generated}</p>}
          <div className="grid gap-3 md:grid-cols-2">
            {groups.map((group) => (
              <nav key={group.heading} aria-label={group.heading} className="flex min-w-0 flex-col gap-1">
                <h3 className="text-xs font-semibold uppercase tracking-wide text-zinc-600">{group.heading}</h3>
                {group.links.length === 0 ? (
                  <p className="text-sm text-zinc-600">{group.empty ?? "None."}</p>
                ) : (
                  <ul className="flex flex-col gap-0.5">
                    {group.links.map((link) => (
                      <li key={link.name}>
                        <button
                          type="button"
                          onClick={() => open(link.name)}
                          aria-current={chosen === link.name ? "true" : undefined}
                          className={`w-full rounded-md px-2 py-1 text-left text-sm ${
                            chosen === link.name ? "bg-accent-soft font-medium text-accent-stronger" : "text-zinc-800 hover:bg-zinc-50"
                          }`}
                        >
                          {link.text}
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </nav>
            ))}
          </div>
        </>
      )}
      {problem && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {problem}
        </p>
      )}
      <div aria-live="polite" className="sr-only">
        {loading ? "Loading the comparison…" : ""}
      </div>
      {chosen && opened && (
        <article aria-labelledby={`${headingId}-document`} className="flex flex-col gap-3 border-t border-zinc-200 pt-3">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <h3 id={`${headingId}-document`} ref={headingRef} tabIndex={-1} className="text-base font-semibold text-zinc-900">
              {opened.title ?? chosen}
            </h3>
            <a href={matrixComparisonUrl(id, chosen)} download className={linkClass} aria-label={`Download ${chosen} comparison.md`}>
              comparison.md
            </a>
          </div>
          {opened.frontMatter.length > 0 && (
            <dl
              aria-label="Front matter"
              className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-0.5 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-xs"
            >
              {opened.frontMatter.map((fact) => (
                <div key={fact.label} className="contents">
                  <dt className="text-zinc-600">{fact.label}</dt>
                  <dd className="break-all text-zinc-900">{fact.value}</dd>
                </div>
              ))}
            </dl>
          )}
          <Facts facts={opened.facts} />
          {opened.notes.map((note, position) => (
            <p key={position} className="whitespace-pre-wrap break-words text-sm text-zinc-800">
              {note}
            </p>
          ))}
          <div className="overflow-x-auto">
            <div
              className="grid gap-3"
              style={{ gridTemplateColumns: `repeat(${Math.max(1, opened.sections.length)}, minmax(300px, 1fr))` }}
            >
              {opened.sections.map((section, position) => (
                <section
                  key={position}
                  aria-labelledby={`${headingId}-section-${position}`}
                  className="flex min-w-0 flex-col gap-2 rounded-md border border-zinc-200 px-3 py-2"
                >
                  <h4 id={`${headingId}-section-${position}`} className="break-all text-sm font-semibold text-zinc-900">
                    {section.heading}
                  </h4>
                  <Facts facts={section.facts} />
                  {section.error !== null ? (
                    <p className="rounded-md border border-amber-300 bg-amber-50 px-2 py-1.5 text-sm text-amber-900">
                      Error: {section.error}
                    </p>
                  ) : (
                    <pre className="max-h-[60vh] overflow-auto whitespace-pre-wrap break-words rounded-md bg-zinc-50 px-2 py-1.5 font-mono text-[13px] text-zinc-900">
                      {section.output}
                    </pre>
                  )}
                </section>
              ))}
            </div>
          </div>
        </article>
      )}
    </section>
  );
}

function Facts({ facts }: { facts: Array<{ label: string; value: string }> }) {
  if (facts.length === 0) return null;
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-sm">
      {facts.map((fact, position) => (
        <div key={position} className="contents">
          <dt className="font-semibold text-zinc-800">{fact.label}</dt>
          <dd className="break-words tabular-nums text-zinc-900">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}
