import { describe, expect, it } from "vitest";
import { supersededToasts, toastPositionFor } from "@/components/toast-placement";

const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

describe("where toasts go", () => {
  it("stays at the bottom when no control was used, or the control is in the upper half", () => {
    expect(toastPositionFor(undefined, desktop)).toBe("bottom-right");
    expect(toastPositionFor({ top: 100, bottom: 130, right: 1400 }, desktop)).toBe("bottom-right");
  });

  it("moves to the top when the control is in the lower half under the toasts' column", () => {
    expect(toastPositionFor({ top: 800, bottom: 830, right: 1400 }, desktop)).toBe("top-right");
    expect(toastPositionFor({ top: 800, bottom: 830, right: 1100 }, desktop)).toBe("top-right");
  });

  it("stays at the bottom for a low control left of the column on a wide window", () => {
    expect(toastPositionFor({ top: 800, bottom: 830, right: 900 }, desktop)).toBe("bottom-right");
  });

  it("on a phone, where toasts span the width, moves to the top for any control in the lower half", () => {
    expect(toastPositionFor({ top: 700, bottom: 740, right: 120 }, phone)).toBe("top-right");
    expect(toastPositionFor({ top: 200, bottom: 240, right: 120 }, phone)).toBe("bottom-right");
  });
});

describe("which toasts a newer one supersedes", () => {
  it("dismisses the errors and warnings shown before a new toast, not the new one nor older successes", () => {
    const toasts = [
      { id: 3, type: "success" },
      { id: 2, type: "error" },
      { id: 1, type: "warning" },
      { id: 0, type: "success" },
    ];
    expect(supersededToasts(toasts, new Set([0, 1, 2]))).toEqual([2, 1]);
  });

  it("dismisses nothing when no toast is new (one updated in place keeps its id)", () => {
    expect(supersededToasts([{ id: "save", type: "error" }], new Set(["save"]))).toEqual([]);
  });

  it("keeps errors that appear together", () => {
    expect(
      supersededToasts(
        [
          { id: 1, type: "error" },
          { id: 2, type: "error" },
        ],
        new Set(),
      ),
    ).toEqual([]);
  });
});
