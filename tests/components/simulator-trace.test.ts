// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ToolListResponse } from "@/components/api-client";
import { Trace } from "@/components/simulator-trace";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

// An override applied in part: its annotation is, its default is not (the server dropped the parameter).
const NOT_APPLIED = 'catalog override for every model: default of limit not applied: Tool "shop__lookup" has no parameter "limit" (it takes none).';
const APPLIED = "catalog override for every model replaces the annotation readOnlyHint";

const result = (changed: { name: string; reason: string }[]) =>
  ({ trace: [{ stage: "definition-overrides", removed: [], changed, remaining: 1 }] }) as unknown as ToolListResponse;

describe("the Simulator's trace", () => {
  it("shows every note a stage makes about one tool, each under a key of its own", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const notes = [
      { name: "shop__lookup", reason: NOT_APPLIED },
      { name: "shop__lookup", reason: APPLIED },
    ];
    const { rerender } = render(createElement(Trace, { result: result(notes) }));
    rerender(createElement(Trace, { result: result([...notes].reverse()) }));
    const shown = within(screen.getByTestId("stage-definition-overrides")).getAllByTestId("trace-changed");
    expect(shown.map((note) => note.textContent)).toEqual([`~shop__lookup ${APPLIED}`, `~shop__lookup ${NOT_APPLIED}`]);
    expect(errors.mock.calls.flat().join(" ")).not.toContain("same key");
  });
});
