import { describe, expect, it } from "vitest";
import { rowWindow, rowsPerPage, scrollTopToReveal } from "@/components/results/row-window";

const layout = { bodyTop: 60, headerHeight: 40, rowHeight: 150, overscan: 4 };

describe("rowWindow", () => {
  it("renders the rows in view plus the overscan at the top of a long table", () => {
    expect(rowWindow({ ...layout, scrollTop: 0, viewportHeight: 600, rowCount: 10_000 })).toEqual({ start: 0, end: 8, firstVisible: 0 });
  });

  it("follows the scroll position and clamps to the last row", () => {
    // scrollTop 15060: row 100 starts at the top edge of the viewport.
    expect(rowWindow({ ...layout, scrollTop: 15_060, viewportHeight: 600, rowCount: 10_000 })).toEqual({
      start: 96,
      end: 108,
      firstVisible: 101,
    });
    const bottom = rowWindow({ ...layout, scrollTop: 60 + 9_998 * 150, viewportHeight: 600, rowCount: 10_000 });
    expect(bottom.end).toBe(10_000);
    expect(bottom.start).toBe(9_994);
    expect(bottom.firstVisible).toBe(9_999);
  });

  it("is empty with no rows", () => {
    expect(rowWindow({ ...layout, scrollTop: 0, viewportHeight: 600, rowCount: 0 })).toEqual({ start: 0, end: 0, firstVisible: 0 });
  });
});

describe("scrollTopToReveal", () => {
  const viewport = { viewportHeight: 600, bodyTop: 60, rowHeight: 150, headerHeight: 40, footerHeight: 48 };

  it("leaves the scroll position alone for a row already in view", () => {
    expect(scrollTopToReveal({ ...viewport, row: 1, scrollTop: 0 })).toBe(0);
  });

  it("scrolls down just enough to show a row below the view above the sticky footer", () => {
    // Row 10 ends at 60 + 11 * 150 = 1710; the view shows up to scrollTop + 600 - 48.
    expect(scrollTopToReveal({ ...viewport, row: 10, scrollTop: 0 })).toBe(1710 - 552);
  });

  it("scrolls up so a row above the view sits under the sticky header", () => {
    expect(scrollTopToReveal({ ...viewport, row: 2, scrollTop: 5_000 })).toBe(60 + 300 - 40);
    expect(scrollTopToReveal({ ...viewport, row: 0, scrollTop: 5_000 })).toBe(20);
  });
});

describe("rowsPerPage", () => {
  it("counts the whole rows between header and footer, at least one", () => {
    expect(rowsPerPage({ viewportHeight: 600, headerHeight: 40, footerHeight: 48, rowHeight: 150 })).toBe(3);
    expect(rowsPerPage({ viewportHeight: 100, headerHeight: 40, footerHeight: 48, rowHeight: 150 })).toBe(1);
  });
});
