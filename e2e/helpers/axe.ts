// The WCAG 2.1 AA scan (axe-core) that specs run at the states they reach: a finding fails the
// test with the rule, the elements and what axe says is wrong, so it can be fixed from the log.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The rules of WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** Scans the whole page as it is now; `state` names it in the failure ("workbench after a run"). */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  // Colour contrast is read from the painted colours: let transitions (the metric fade, a dialog
  // opening) end first, but not the endless ones (a running cell's pulse), for at most 2 s.
  await page.evaluate(() => {
    const ending = document.getAnimations().filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)));
    const ended = Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
    return Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 2000))]);
  });
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  const findings = results.violations.map((violation) => ({
    rule: `${violation.id} (${violation.impact ?? "?"}): ${violation.help}`,
    nodes: violation.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary?.replaceAll("\n", " ") ?? ""}`),
  }));
  expect(findings, `axe-core, WCAG 2.1 AA, on ${state}`).toEqual([]);
}
