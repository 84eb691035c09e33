// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { type ComponentProps, createElement } from "react";
import { toast } from "sonner";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { addMcpServerAction } from "@/app/catalogs/[catalog]/sources/actions";
import { CatalogAccessProvider } from "@/components/catalog-access";
import { SourcesPage } from "@/components/sources-page";

vi.mock("@/app/catalogs/[catalog]/sources/actions", () => ({
  addMcpServerAction: vi.fn(),
  deleteMcpServerAction: vi.fn(),
  reloadSourcesAction: vi.fn(),
  syncMcpServerAction: vi.fn(),
}));
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn(), back: vi.fn() }) }));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn() } }));

const local = {
  folders: { plugins: "plugins", skills: "skills", agents: "agents" },
  loadedAt: "2025-03-12T14:03:05.123Z",
  plugins: [],
  skills: [],
  fileAgents: [],
  errors: { plugins: [], skills: [], agents: [] },
};

beforeEach(() => {
  // The page's poll of the servers' status.
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ servers: [] })),
  );
});

afterEach(() => {
  cleanup();
  vi.mocked(addMcpServerAction).mockReset();
  vi.mocked(toast.error).mockReset();
  vi.mocked(toast.success).mockReset();
  vi.unstubAllGlobals();
});

function renderPage(addableTransports: ("stdio" | "http")[] = ["stdio", "http"]) {
  const page = createElement(SourcesPage, {
    catalogId: "team",
    servers: [],
    offers: {},
    local,
    catalogAgents: [],
    renderedAt: Date.parse(local.loadedAt),
    addableTransports,
    mayReload: false,
    connectTimeoutMs: 60_000,
  });
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    createElement(
      QueryClientProvider,
      { client: queries },
      createElement(CatalogAccessProvider, { access: "admin" } as ComponentProps<typeof CatalogAccessProvider>, page),
    ),
  );
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
const fieldValue = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement).value;
const added = (name: string, error?: string) => ({
  ok: true as const,
  data: { server: { name }, sync: { added: error ? [] : ["a", "b"], updated: [], unregistered: [], conflicts: [], error } },
});

describe("the Sources page's add-MCP-server form", () => {
  it("catches every malformed env line before sending, marks the field, and sends once they are fixed", async () => {
    renderPage();
    type("mcp-name", "notes");
    type("mcp-command", "node");
    type("mcp-env", "NO_EQUALS_SIGN\nA=1\nA=2");
    fireEvent.click(screen.getByTestId("mcp-add"));
    const errors = await screen.findByTestId("mcp-errors-env");
    expect(errors.textContent).toContain("Line 1: write KEY=value.");
    expect(errors.textContent).toContain('Line 3: "A" is given twice.');
    expect(screen.getByTestId("mcp-env").getAttribute("aria-invalid")).toBe("true");
    expect(toast.error).toHaveBeenCalledWith("Fix the marked lines first");
    expect(addMcpServerAction).not.toHaveBeenCalled();

    vi.mocked(addMcpServerAction).mockResolvedValue(added("notes") as never);
    type("mcp-env", "A=1");
    type("mcp-args", "server.mjs\n--verbose");
    type("mcp-secret-args", "--key=s3cret");
    fireEvent.click(screen.getByTestId("mcp-add"));
    await waitFor(() => expect(addMcpServerAction).toHaveBeenCalledTimes(1));
    expect(vi.mocked(addMcpServerAction).mock.calls[0]).toEqual([
      "team",
      { name: "notes", transport: "stdio", command: "node", args: ["server.mjs", "--verbose", { value: "--key=s3cret", secret: true }], env: { A: "1" } },
    ]);
    await waitFor(() => expect(screen.queryByTestId("mcp-errors-env")).toBeNull());
  });

  it("shows the server's problems under their fields, the others under the form, and keeps the draft", async () => {
    vi.mocked(addMcpServerAction).mockResolvedValue({
      ok: false,
      error: {
        code: "validation",
        message: "Invalid MCP server",
        problems: [
          { field: "name", message: "A server name is 1-32 lowercase letters." },
          { field: "env.1BAD", message: '"1BAD" is not a valid environment variable name.' },
          { field: "url", message: "Not for stdio." },
        ],
      },
    });
    renderPage();
    type("mcp-name", "Bad Name");
    type("mcp-command", "node");
    type("mcp-env", "1BAD=x");
    fireEvent.click(screen.getByTestId("mcp-add"));
    expect((await screen.findByTestId("mcp-errors-name")).textContent).toContain("lowercase letters");
    expect(screen.getByTestId("mcp-errors-env").textContent).toContain('env.1BAD "1BAD" is not a valid environment variable name.');
    expect(screen.getByTestId("mcp-errors-other").textContent).toContain("Not for stdio.");
    expect(screen.getByTestId("mcp-name").getAttribute("aria-describedby")).toBe("mcp-name-errors");
    expect(toast.error).toHaveBeenCalledWith("Invalid MCP server");
    expect([fieldValue("mcp-name"), fieldValue("mcp-command"), fieldValue("mcp-env")]).toEqual(["Bad Name", "node", "1BAD=x"]);
    expect((screen.getByTestId("mcp-add") as HTMLButtonElement).disabled).toBe(false);
  });

  it("disables the button while the server connects, then empties the fields but keeps the transport", async () => {
    let answer: (value: unknown) => void = () => {};
    vi.mocked(addMcpServerAction).mockReturnValue(new Promise((resolve) => (answer = resolve)) as never);
    renderPage();
    fireEvent.change(screen.getByTestId("mcp-transport"), { target: { value: "http" } });
    type("mcp-name", "remote");
    type("mcp-url", "https://x.example/mcp");
    type("mcp-headers", "Authorization: Bearer t");
    fireEvent.click(screen.getByTestId("mcp-add"));
    await waitFor(() => expect(screen.getByTestId("mcp-add").textContent).toBe("Connecting…"));
    expect((screen.getByTestId("mcp-add") as HTMLButtonElement).disabled).toBe(true);
    expect(vi.mocked(addMcpServerAction).mock.calls[0][1]).toEqual({
      name: "remote",
      transport: "http",
      url: "https://x.example/mcp",
      headers: { Authorization: "Bearer t" },
    });
    await act(async () => answer(added("remote", "getaddrinfo ENOTFOUND")));
    await waitFor(() => expect(screen.getByTestId("mcp-add").textContent).toBe("Add server"));
    expect(toast.error).toHaveBeenCalledWith("Added remote, but it could not be reached", { description: "getaddrinfo ENOTFOUND", duration: 10_000 });
    expect([fieldValue("mcp-transport"), fieldValue("mcp-name"), fieldValue("mcp-url"), fieldValue("mcp-headers")]).toEqual(["http", "", "", ""]);
  });

  it("keeps what was typed in one transport's fields while the other is shown", () => {
    renderPage();
    type("mcp-command", "npx");
    fireEvent.change(screen.getByTestId("mcp-transport"), { target: { value: "http" } });
    expect(screen.queryByTestId("mcp-command")).toBeNull();
    fireEvent.change(screen.getByTestId("mcp-transport"), { target: { value: "stdio" } });
    expect(fieldValue("mcp-command")).toBe("npx");
  });

  it("offers stdio only to instance admins, and starts on the transport this person may add", () => {
    renderPage(["http"]);
    expect(fieldValue("mcp-transport")).toBe("http");
    expect(screen.getByTestId("mcp-stdio-note").textContent).toBe("Only instance admins add stdio servers (they run a command on this host).");
    expect(screen.getByTestId("mcp-url")).toBeTruthy();
  });
});
