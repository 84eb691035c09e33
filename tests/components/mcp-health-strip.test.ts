// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { type ComponentProps, createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CatalogAccessProvider } from "@/components/catalog-access";
import { McpServersSection } from "@/components/mcp-servers-section";
import type { McpServerView } from "@/db/queries/mcp-servers";

vi.mock("@/app/catalogs/[catalog]/sources/actions", () => ({ deleteMcpServerAction: vi.fn(), syncMcpServerAction: vi.fn(), addMcpServerAction: vi.fn() }));
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn(), back: vi.fn() }) }));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NOW = Date.parse("2025-03-12T14:10:00.000Z");

const server: McpServerView = {
  name: "files",
  config: { name: "files", transport: "http", url: "http://127.0.0.1:9/mcp" },
  status: "error",
  starting: null,
  lastSyncAt: "2025-03-12T14:05:00.000Z",
  lastError: "Could not reach it.",
  toolCount: 1,
  registeredCount: 0,
  heldBack: [],
  serverInfo: null,
  health: [
    { state: "failing", cause: "Could not reach it: ECONNREFUSED.", at: "2025-03-12T14:05:00.000Z" },
    { state: "held-back", cause: "1 tool(s) held back until an editor reviews their definition (Tools page): files__read.", at: "2025-03-12T13:00:00.000Z" },
    { state: "connected", cause: null, at: "2025-03-12T12:00:00.000Z" },
    { state: "starting", cause: "Waiting for the handshake.", at: "2025-03-12T11:59:58.000Z" },
  ],
};

function renderSection(servers: McpServerView[], access: "read" | "admin" = "read") {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ servers })),
  );
  const section = createElement(McpServersSection, {
    catalogId: "team",
    initial: servers,
    offers: {},
    now: NOW,
    addableTransports: [],
    connectTimeoutMs: 60_000,
  });
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    createElement(
      QueryClientProvider,
      { client: queries },
      createElement(CatalogAccessProvider, { access } as ComponentProps<typeof CatalogAccessProvider>, section),
    ),
  );
}

describe("an MCP server's health on the Sources page", () => {
  it("draws its last changes oldest to newest, says since when it is in its state, and lists each change with its time and cause", () => {
    renderSection([server]);
    const health = screen.getByTestId("mcp-health-files");
    const marks = [...health.querySelectorAll(".mcp-health-mark")];
    expect(marks.map((mark) => mark.getAttribute("data-state"))).toEqual(["starting", "connected", "held-back", "failing"]);
    expect(marks[3].getAttribute("title")).toBe("failing, 12 Mar 2025, 14:05 UTC: Could not reach it: ECONNREFUSED.");
    expect(screen.getByTestId("mcp-health-now-files").textContent).toBe("failing since 5 min ago");
    const items = within(health).getAllByRole("listitem");
    expect(items.map((item) => item.querySelector(".badge")?.textContent)).toEqual(["failing", "held back", "connected", "starting"]);
    expect(items[1].textContent).toContain("files__read");
    expect(items[0].querySelector("time")?.getAttribute("datetime")).toBe("2025-03-12T14:05:00.000Z");
  });

  it("keeps the row's error and, for admins, its Sync and Delete beside the health", () => {
    renderSection([server], "admin");
    expect(screen.getByTestId("mcp-error-files").textContent).toBe("Error: Could not reach it.");
    expect(screen.getByTestId("mcp-sync-files").textContent).toBe("Sync");
    expect(screen.getByTestId("mcp-delete-files")).toBeTruthy();
    expect(screen.getByTestId("mcp-health-files")).toBeTruthy();
  });

  it("draws nothing for a server with no recorded change yet", () => {
    renderSection([{ ...server, health: [] }]);
    expect(screen.getByTestId("mcp-server-files")).toBeTruthy();
    expect(screen.queryByTestId("mcp-health-files")).toBeNull();
  });
});
