// Which rows of a long results table are in the DOM: the ones in view plus a margin. Rows have one
// fixed height, so this is arithmetic on the scroll position, with no measuring of rows.

/** The rows to render, [start, end), and the first row that is actually in view. */
export type RowWindow = { start: number; end: number; firstVisible: number };

type Viewport = {
  /** The scroll box's scrollTop. */
  scrollTop: number;
  /** The scroll box's clientHeight. */
  viewportHeight: number;
  /** Where the first body row starts, measured from the top of the scroll box's content. */
  bodyTop: number;
  /** Height of the sticky header row, which covers the top of the viewport. */
  headerHeight: number;
  rowHeight: number;
  rowCount: number;
  /** Rows rendered beyond each edge of the viewport, so fast scrolling does not show blank space. */
  overscan: number;
};

/** The window of rows to render for a scroll position. */
export function rowWindow({ scrollTop, viewportHeight, bodyTop, headerHeight, rowHeight, rowCount, overscan }: Viewport): RowWindow {
  if (rowCount <= 0 || rowHeight <= 0) return { start: 0, end: 0, firstVisible: 0 };
  const top = scrollTop - bodyTop;
  const firstInView = Math.floor(top / rowHeight);
  const lastInView = Math.ceil((top + viewportHeight) / rowHeight);
  const clamp = (row: number) => Math.min(rowCount, Math.max(0, row));
  return {
    start: clamp(firstInView - overscan),
    end: clamp(lastInView + overscan),
    // The first row whose top is not under the sticky header.
    firstVisible: Math.min(rowCount - 1, clamp(Math.ceil((top + headerHeight) / rowHeight))),
  };
}

type Reveal = {
  row: number;
  scrollTop: number;
  viewportHeight: number;
  bodyTop: number;
  rowHeight: number;
  /** Sticky header and footer heights: a row under either is not visible. */
  headerHeight: number;
  footerHeight: number;
};

/** The scrollTop that brings a row fully into view with the least movement (unchanged if it is). */
export function scrollTopToReveal({ row, scrollTop, viewportHeight, bodyTop, rowHeight, headerHeight, footerHeight }: Reveal): number {
  const rowTop = bodyTop + row * rowHeight;
  const rowBottom = rowTop + rowHeight;
  if (rowTop < scrollTop + headerHeight) return Math.max(0, rowTop - headerHeight);
  if (rowBottom > scrollTop + viewportHeight - footerHeight) return rowBottom - viewportHeight + footerHeight;
  return scrollTop;
}

/** How many whole rows fit between the sticky header and footer: the Page Up/Down step. */
export function rowsPerPage({
  viewportHeight,
  headerHeight,
  footerHeight,
  rowHeight,
}: Omit<Reveal, "row" | "scrollTop" | "bodyTop">): number {
  return Math.max(1, Math.floor((viewportHeight - headerHeight - footerHeight) / rowHeight));
}
