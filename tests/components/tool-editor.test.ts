// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { updateToolAction } from "@/app/catalogs/[catalog]/tools/actions";
import { ToolEditor } from "@/components/tool-editor";
import type { ToolRecord } from "@/db/queries/tools";

vi.mock("@/app/catalogs/[catalog]/tools/actions", () => ({ createToolAction: vi.fn(), updateToolAction: vi.fn() }));
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn(), back: vi.fn() }) }));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const tool = {
  name: "notes_get",
  source: "custom",
  summary: "Read a note.",
  description: "Returns one note.",
  inputSchema: { type: "object", properties: {} },
  enabled: true,
  tags: ["notes"],
  registered: true,
  requires: null,
  sourceRef: null,
  meta: null,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
} as unknown as ToolRecord;

function renderEditor() {
  render(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(ToolEditor, { catalogId: "demo", tool })));
  return screen.getByLabelText(/^Summary/) as HTMLInputElement;
}

describe("the tool editor", () => {
  afterEach(() => {
    cleanup();
    vi.mocked(updateToolAction).mockReset();
  });

  it("keeps the draft when the save's request fails, says so in place, and Retry saves it", async () => {
    const summary = renderEditor();
    fireEvent.change(summary, { target: { value: "Read one note by its id." } });
    vi.mocked(updateToolAction).mockRejectedValueOnce(new TypeError("Failed to fetch"));
    fireEvent.click(screen.getByTestId("save-tool"));

    const error = await screen.findByTestId("save-error");
    expect(error.textContent).toContain("Could not save notes_get");
    expect(error.textContent).toContain("Your edits are kept");
    expect(summary.value).toBe("Read one note by its id.");

    vi.mocked(updateToolAction).mockResolvedValueOnce({ ok: true, data: { ...tool, summary: "Read one note by its id." } });
    const retry = screen.getByTestId("save-retry") as HTMLButtonElement;
    await vi.waitFor(() => expect(retry.disabled).toBe(false));
    fireEvent.click(retry);
    await vi.waitFor(() => expect(vi.mocked(updateToolAction).mock.calls.length).toBe(2));
    await vi.waitFor(() => expect(screen.queryByTestId("save-error")).toBeNull());
    expect(vi.mocked(updateToolAction).mock.calls.at(-1)?.[2]).toMatchObject({ summary: "Read one note by its id." });
  });

  it("shows a refusal's message in place too, with the fields' errors", async () => {
    const summary = renderEditor();
    fireEvent.change(summary, { target: { value: "Read a note, again." } });
    vi.mocked(updateToolAction).mockResolvedValueOnce({
      ok: false,
      error: { code: "conflict", message: "The tool changed meanwhile.", problems: [{ field: "summary", message: "Changed by someone else." }] },
    });
    fireEvent.click(screen.getByTestId("save-tool"));
    expect((await screen.findByTestId("save-error")).textContent).toContain("The tool changed meanwhile.");
    expect(screen.getByTestId("error-tool-summary").textContent).toContain("Changed by someone else.");
    expect(summary.value).toBe("Read a note, again.");
  });
});
