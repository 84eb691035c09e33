// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ToolImport } from "@/components/tool-import";
import type { ImportPreview } from "@/db/import-job";
import type { ServerImportPreview } from "@/lib/catalogs/mcp-client-config";
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn(), back: vi.fn() }) }));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const TEXT = '{"tools": []}';

const PREVIEW: ImportPreview = {
  format: { id: "openai-chat", label: "OpenAI Chat Completions function tools" },
  notes: ['"strict" (on 4 tools) is not kept: an imported tool is its name, description and input schema.'],
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

/** The import API as the page reaches it: each call answers the next of the answers given. */
const fetchMock = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>();
const answer = (status: number, body: unknown) => fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status }));
/** The calls to the API: the URL, and whether the body sent was the file itself. */
const calls = () =>
  fetchMock.mock.calls.map(([url, init]) => ({ url, method: init?.method ?? "GET", file: init?.body instanceof File ? init.body.name : undefined }));

async function chooseFile(preview: ImportPreview) {
  answer(200, { preview });
  const file = new File([TEXT], "tools.json", { type: "application/json" });
  fireEvent.change(screen.getByTestId("import-file"), { target: { files: [file] } });
  return screen.findByTestId("import-preview");
}

const text = (testId: string) => screen.getByTestId(testId).textContent ?? "";

describe("importing a file into the tools table", () => {
  beforeEach(() => vi.stubGlobal("fetch", fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it("shows what the import would do, by the file's names, and imports only once confirmed; then offers the imported tools", async () => {
    const onShowImported = renderImport();
    const preview = await chooseFile(PREVIEW);
    expect(calls()).toEqual([{ url: "/api/catalogs/demo/import?dryRun=1", method: "POST", file: "tools.json" }]);
    expect(preview.textContent).toContain("revision 7");
    expect(text("import-format")).toBe("Read as OpenAI Chat Completions function tools");
    expect(text("import-notes")).toContain('"strict" (on 4 tools) is not kept');
    expect(text("import-preview-counts")).toBe("create 1update 1leave 1 unchangedrefuse 1");
    expect(text("import-refused")).toContain('grep #5: Here "grep" comes from the builtin source');
    expect(text("import-updated")).toContain("notes_get #2: summary, input schema");
    expect(text("import-created")).toContain("Notes_Search #1");
    expect(calls()).toHaveLength(1);

    answer(200, RESULT);
    fireEvent.click(screen.getByTestId("import-confirm"));
    expect(await screen.findByTestId("import-result")).toHaveProperty("textContent", "Imported: 1 created, 1 updated, 1 unchanged, 1 refused");
    expect(calls()[1]).toEqual({ url: "/api/catalogs/demo/import", method: "POST", file: "tools.json" });
    expect(screen.queryByTestId("import-differs")).toBeNull();
    fireEvent.click(screen.getByTestId("show-imported"));
    expect(onShowImported).toHaveBeenCalledWith(8);
  });

  it("imports nothing when cancelled", async () => {
    renderImport();
    await chooseFile(PREVIEW);
    fireEvent.click(screen.getByTestId("import-close"));
    expect(screen.queryByTestId("import-panel")).toBeNull();
    expect(calls()).toHaveLength(1);
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
    answer(200, changedMeanwhile);
    fireEvent.click(screen.getByTestId("import-confirm"));
    expect((await screen.findByTestId("import-differs")).textContent).toContain("The catalog changed after the preview");
    expect(text("import-result")).toBe("Imported: 1 created, 2 updated, 0 unchanged, 1 refused");
    expect(text("show-imported")).toContain("(3)");
  });

  it("shows a file the server cannot read, in place, with nothing changed", async () => {
    renderImport();
    answer(400, { error: { code: "bad_request", message: "The request body is not valid JSON: Unexpected token" } });
    fireEvent.change(screen.getByTestId("import-file"), { target: { files: [new File(["{"], "broken.json")] } });
    expect((await screen.findByTestId("import-error")).textContent).toContain("broken.json cannot be imported: nothing was changed.");
    expect(text("import-error")).toContain("The request body is not valid JSON: Unexpected token");
    expect(calls()).toHaveLength(1);
  });

  it("says the server could not be reached when the request fails, and follows a large import's job to its result", async () => {
    renderImport();
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    fireEvent.change(screen.getByTestId("import-file"), { target: { files: [new File([TEXT], "tools.json")] } });
    expect(await screen.findByTestId("import-error")).toHaveProperty("textContent", expect.stringContaining("The server could not be reached"));
    await chooseFile(PREVIEW);
    answer(202, { job: { id: "j1", url: "/api/catalogs/demo/import-jobs/j1" } });
    answer(200, { job: { id: "j1", status: "running", progress: { done: 250, total: 4, phase: "validating" } } });
    answer(200, { job: { id: "j1", status: "done", progress: { done: 4, total: 4, phase: "writing" }, result: RESULT } });
    fireEvent.click(screen.getByTestId("import-confirm"));
    expect(await screen.findByTestId("import-result", {}, { timeout: 3_000 })).toHaveProperty(
      "textContent",
      "Imported: 1 created, 1 updated, 1 unchanged, 1 refused",
    );
    expect(
      calls()
        .slice(-2)
        .map((call) => call.url),
    ).toEqual(["/api/catalogs/demo/import-jobs/j1", "/api/catalogs/demo/import-jobs/j1"]);
  });

  it("previews an MCP client configuration's servers, with their problems and secrets' names only, and adds them once confirmed", async () => {
    renderImport();
    const preview: ServerImportPreview = {
      format: { id: "mcp-client-config", label: "MCP client configuration" },
      servers: [
        {
          key: "Weather",
          name: "weather",
          transport: "stdio",
          target: "npx -y weather-mcp",
          secrets: ["WEATHER_KEY"],
          problems: [],
          notes: ['Named "weather" here.'],
        },
      ],
    };
    answer(200, { preview });
    fireEvent.change(screen.getByTestId("import-file"), { target: { files: [new File(["{}"], "claude_desktop_config.json")] } });
    expect(await screen.findByTestId("import-servers")).toHaveProperty("textContent", expect.stringContaining("weather (stdio) npx -y weather-mcp"));
    expect(text("import-server-Weather")).toContain("Environment WEATHER_KEY: stored encrypted");
    expect(text("import-format")).toBe("Read as MCP client configuration");
    answer(201, {
      format: preview.format,
      servers: [{ name: "weather", sync: { added: ["weather__forecast"], updated: [], unregistered: [], conflicts: [] } }],
    });
    fireEvent.click(screen.getByTestId("import-confirm"));
    expect(await screen.findByTestId("import-result")).toHaveProperty("textContent", "Added 1 MCP server:");
    expect(screen.getByTestId("import-sources-link").getAttribute("href")).toBe("/catalogs/demo/sources");

    answer(200, {
      preview: { ...preview, servers: [{ ...preview.servers[0], problems: [{ field: "mcpServers.Weather.command", message: "Not allowed." }] }] },
    });
    fireEvent.change(screen.getByTestId("import-file"), { target: { files: [new File(["{}"], "again.json")] } });
    expect(await screen.findByTestId("import-blocked")).toBeTruthy();
    expect(text("import-server-Weather")).toContain("command Not allowed.");
    expect(screen.queryByTestId("import-confirm")).toBeNull();
  });
});
