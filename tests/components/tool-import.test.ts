// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { previewImportAction, startImportAction } from "@/app/catalogs/[catalog]/tools/actions";
import { ToolImport } from "@/components/tool-import";
import type { ImportPreview } from "@/db/import-job";

vi.mock("@/app/catalogs/[catalog]/tools/actions", () => ({ previewImportAction: vi.fn(), startImportAction: vi.fn(), importJobAction: vi.fn() }));
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn(), back: vi.fn() }) }));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const TEXT = '{"tools": []}';

const PREVIEW: ImportPreview = {
  revision: 7,
  created: [{ name: "Notes_Search", index: 0 }],
  updated: [{ name: "notes_get", index: 1, fields: ["summary", "inputSchema"] }],
  unchanged: [{ name: "notes_list", index: 2 }],
  skipped: [{ name: "grep", index: 4, reason: 'Here "grep" comes from the builtin source, which defines it.' }],
  invalid: [],
};

const RESULT = { created: ["Notes_Search"], updated: ["notes_get"], unchanged: ["notes_list"], skipped: [{ name: "grep", reason: "builtin" }], revision: 8 };

function renderImport() {
  const onShowImported = vi.fn();
  render(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(ToolImport, { catalogId: "demo", onShowImported })));
  return onShowImported;
}

async function chooseFile(preview: ImportPreview) {
  vi.mocked(previewImportAction).mockResolvedValueOnce({ ok: true, data: preview });
  const file = new File([TEXT], "tools.json", { type: "application/json" });
  fireEvent.change(screen.getByTestId("import-file"), { target: { files: [file] } });
  return screen.findByTestId("import-preview");
}

const text = (testId: string) => screen.getByTestId(testId).textContent ?? "";

describe("importing a file into the tools table", () => {
  afterEach(() => {
    cleanup();
    vi.mocked(previewImportAction).mockReset();
    vi.mocked(startImportAction).mockReset();
  });

  it("shows what the import would do, by the file's names, and imports only once confirmed; then offers the imported tools", async () => {
    const onShowImported = renderImport();
    const preview = await chooseFile(PREVIEW);
    expect(vi.mocked(previewImportAction)).toHaveBeenCalledWith("demo", TEXT);
    expect(preview.textContent).toContain("revision 7");
    expect(text("import-preview-counts")).toBe("create 1update 1leave 1 unchangedrefuse 1");
    expect(text("import-refused")).toContain('grep #5: Here "grep" comes from the builtin source');
    expect(text("import-updated")).toContain("notes_get #2: summary, input schema");
    expect(text("import-created")).toContain("Notes_Search #1");
    expect(vi.mocked(startImportAction)).not.toHaveBeenCalled();

    vi.mocked(startImportAction).mockResolvedValueOnce({ ok: true, data: { result: RESULT } });
    fireEvent.click(screen.getByTestId("import-confirm"));
    expect(await screen.findByTestId("import-result")).toHaveProperty("textContent", "Imported: 1 created, 1 updated, 1 unchanged, 1 refused");
    expect(vi.mocked(startImportAction)).toHaveBeenCalledWith("demo", TEXT);
    expect(screen.queryByTestId("import-differs")).toBeNull();
    fireEvent.click(screen.getByTestId("show-imported"));
    expect(onShowImported).toHaveBeenCalledWith(8);
  });

  it("imports nothing when cancelled", async () => {
    renderImport();
    await chooseFile(PREVIEW);
    fireEvent.click(screen.getByTestId("import-close"));
    expect(screen.queryByTestId("import-panel")).toBeNull();
    expect(vi.mocked(startImportAction)).not.toHaveBeenCalled();
  });

  it("lists invalid tools with their problems and offers no import while there is any", async () => {
    renderImport();
    await chooseFile({ ...PREVIEW, invalid: [{ name: "bad name", index: 5, problems: [{ field: "tools.5.name", message: "Use letters, digits and _." }] }] });
    expect(text("import-invalid")).toContain("bad name #6name Use letters, digits and _.");
    expect(text("import-preview-counts")).toContain("find 1 invalid");
    expect(screen.queryByTestId("import-confirm")).toBeNull();
    expect(text("import-blocked")).toContain("Fix the invalid tools");
  });

  it("says so when the catalog changed between the preview and the import, and shows what the import did", async () => {
    renderImport();
    await chooseFile(PREVIEW);
    const changedMeanwhile = { ...RESULT, updated: ["notes_get", "notes_list"], unchanged: [], revision: 10 };
    vi.mocked(startImportAction).mockResolvedValueOnce({ ok: true, data: { result: changedMeanwhile } });
    fireEvent.click(screen.getByTestId("import-confirm"));
    expect((await screen.findByTestId("import-differs")).textContent).toContain("The catalog changed after the preview");
    expect(text("import-result")).toBe("Imported: 1 created, 2 updated, 0 unchanged, 1 refused");
    expect(text("show-imported")).toContain("(3)");
  });

  it("shows a file the server cannot read, in place, with nothing changed", async () => {
    renderImport();
    vi.mocked(previewImportAction).mockResolvedValueOnce({
      ok: false,
      error: { code: "bad_request", message: "The request body is not valid JSON: Unexpected token", problems: [] },
    });
    fireEvent.change(screen.getByTestId("import-file"), { target: { files: [new File(["{"], "broken.json")] } });
    expect((await screen.findByTestId("import-error")).textContent).toContain("broken.json cannot be imported: nothing was changed.");
    expect(vi.mocked(startImportAction)).not.toHaveBeenCalled();
  });
});
