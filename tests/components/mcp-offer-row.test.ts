// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { type ComponentProps, createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { approvePromptAction } from "@/app/catalogs/[catalog]/sources/actions";
import { CatalogAccessProvider } from "@/components/catalog-access";
import { McpServersSection } from "@/components/mcp-servers-section";
import type { McpServerView } from "@/db/queries/mcp-servers";
import type { McpOfferSummary } from "@/lib/gateway/federation";

vi.mock("@/app/catalogs/[catalog]/sources/actions", () => ({
  deleteMcpServerAction: vi.fn(),
  syncMcpServerAction: vi.fn(),
  addMcpServerAction: vi.fn(),
  approvePromptAction: vi.fn(async () => ({ ok: true, data: { prompt: "later" } })),
}));
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn(), back: vi.fn() }) }));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const serverNamed = (name: string): McpServerView => ({
  name,
  config: { name, transport: "http", url: "http://127.0.0.1:9/mcp" },
  status: "connected",
  starting: null,
  lastSyncAt: null,
  lastError: null,
  toolCount: 0,
  registeredCount: 0,
  heldBack: [],
  serverInfo: null,
  health: [],
});

const notesOffer: McpOfferSummary = {
  resources: [{ name: "readme", uri: "notes://readme", mimeType: "text/plain" }],
  templates: [{ name: "note", uriTemplate: "notes://notes/{id}", mimeType: null }],
  prompts: [
    { name: "summarise", description: "Summarises a topic.", arguments: [{ name: "topic", required: true }], digest: "d1", approved: true },
    { name: "later", description: "Added later.", arguments: [{ name: "tone", required: false }], digest: "d2", approved: false },
  ],
};

function renderSection(access: "read" | "write") {
  const servers = [serverNamed("notes"), serverNamed("docs")];
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ servers })),
  );
  const section = createElement(McpServersSection, {
    catalogId: "team",
    initial: servers,
    offers: { notes: notesOffer, docs: null },
    now: Date.now(),
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

describe("an MCP server's resources and prompts on the Sources page", () => {
  it("lists its resources with their URIs and mime types, and its prompts with their descriptions and arguments", () => {
    renderSection("read");
    const offer = screen.getByTestId("mcp-offer-notes");
    expect(offer.querySelector("summary")?.textContent).toBe("Resources and prompts: 2 resource(s), 2 prompt(s)");
    const resources = within(screen.getByTestId("mcp-resources-notes"));
    expect(resources.getByTestId("mcp-resource").textContent).toBe("readme notes://readme text/plain");
    expect(resources.getByTestId("mcp-resource-template").textContent).toContain("notes://notes/{id}");
    const prompts = within(screen.getByTestId("mcp-prompts-notes")).getAllByTestId("mcp-prompt");
    expect(prompts.map((prompt) => prompt.textContent)).toEqual(["summarise(topic) Summarises a topic. ", "later(tone?) Added later. held back "]);
    expect(screen.queryByTestId("mcp-prompt-approve")).toBeNull();
  });

  it("says a server is not connected instead of listing nothing", () => {
    renderSection("read");
    expect(screen.getByTestId("mcp-offer-none-docs").textContent).toBe("not connected on this instance");
  });

  it("lets an editor approve a held-back prompt as its digest names it", async () => {
    renderSection("write");
    fireEvent.click(screen.getByTestId("mcp-prompt-approve"));
    await waitFor(() => expect(approvePromptAction).toHaveBeenCalledWith("team", { server: "notes", prompt: "later", digest: "d2" }));
  });
});
