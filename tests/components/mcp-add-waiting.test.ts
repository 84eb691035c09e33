// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement, type ComponentProps } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
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
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.mocked(addMcpServerAction).mockReset();
  vi.unstubAllGlobals();
});

const local = {
  folders: { plugins: "plugins", skills: "skills", agents: "agents" },
  loadedAt: "2025-03-12T14:03:05.123Z",
  plugins: [],
  skills: [],
  fileAgents: [],
  errors: { plugins: [], skills: [], agents: [] },
};

describe("adding an MCP server on the Sources page", () => {
  it("says, while the server starts, what it waits for and for how long at most", async () => {
    // The server's first start: the action has not answered yet.
    vi.mocked(addMcpServerAction).mockReturnValue(new Promise(() => {}));
    // The page's poll of the servers' status.
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ servers: [] })),
    );
    const page = createElement(SourcesPage, {
      catalogId: "team",
      servers: [],
      offers: {},
      local,
      catalogAgents: [],
      renderedAt: Date.parse(local.loadedAt),
      addableTransports: ["stdio", "http"],
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
    expect(screen.queryByTestId("mcp-add-waiting")).toBeNull();
    fireEvent.change(screen.getByTestId("mcp-name"), { target: { value: "files" } });
    fireEvent.change(screen.getByTestId("mcp-command"), { target: { value: "npx" } });
    fireEvent.click(screen.getByTestId("mcp-add"));
    expect((await screen.findByTestId("mcp-add-waiting")).textContent).toBe(
      'Waiting for the MCP server "files" to start and answer the MCP handshake (up to 60 s, TOOLSHED_MCP_CONNECT_TIMEOUT_MS); a first `npx -y` run downloads its package first.',
    );
  });
});
