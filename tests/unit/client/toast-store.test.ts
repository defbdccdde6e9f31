import { beforeEach, describe, expect, it } from "vitest";
import { MAX_TOASTS, showToast, useToastStore } from "@/lib/client/toast-store";

describe("toast store", () => {
  beforeEach(() => useToastStore.setState({ toasts: [] }));

  it("shows notices in order with distinct ids and dismisses one by id", () => {
    const first = showToast({ kind: "success", message: "Loaded a.csv: 2 rows, 1 column" });
    const second = showToast({ kind: "error", message: "b.csv, row 2: broken." });
    expect(first).not.toBe(second);
    expect(useToastStore.getState().toasts).toEqual([
      { id: first, kind: "success", message: "Loaded a.csv: 2 rows, 1 column" },
      { id: second, kind: "error", message: "b.csv, row 2: broken." },
    ]);
    useToastStore.getState().dismissToast(first);
    expect(useToastStore.getState().toasts.map((toast) => toast.id)).toEqual([second]);
  });

  it("drops the oldest beyond the cap", () => {
    const ids = Array.from({ length: MAX_TOASTS + 2 }, (_, index) => showToast({ kind: "success", message: `n${index}` }));
    expect(useToastStore.getState().toasts.map((toast) => toast.id)).toEqual(ids.slice(2));
  });
});
