// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cloneCatalogAction } from "@/app/actions";
import { applyCatalogFileAction } from "@/app/catalogs/[catalog]/code/actions";
import { CatalogCloneForm } from "@/components/catalog-clone-form";
import { CatalogCodePage } from "@/components/catalog-code-page";
import type { CatalogSummary } from "@/db/queries/catalogs";
import type { ApplySummary } from "@/lib/catalogs/apply-plan";

vi.mock("@/app/catalogs/[catalog]/code/actions", () => ({ applyCatalogFileAction: vi.fn() }));
vi.mock("@/app/actions", () => ({ cloneCatalogAction: vi.fn() }));
const push = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ push, refresh: vi.fn(), back: vi.fn() }) }));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const TEXT = "format: toolshed.catalog\nversion: 2\n";
const PLAN: ApplySummary = {
  created: ["tools/refund"],
  changed: [{ name: "tools/bash", fields: ["enabled", "tags"] }],
  unchanged: 20,
  deleted: [],
  pending: [{ name: "tools/gh__search", reason: "No mcp source of this catalog provides it yet." }],
};

const text = (testId: string) => screen.getByTestId(testId).textContent ?? "";

async function chooseFile() {
  fireEvent.change(screen.getByTestId("apply-file"), { target: { files: [new File([TEXT], "shop.catalog.yaml", { type: "application/yaml" })] } });
}

describe("the catalog's Code page", () => {
  afterEach(() => {
    cleanup();
    vi.mocked(applyCatalogFileAction).mockReset();
  });

  it("offers the file in YAML and JSON, and to viewers nothing to apply", () => {
    render(createElement(CatalogCodePage, { catalogId: "demo", mayApply: false }));
    expect(screen.getByTestId("export-yaml").getAttribute("href")).toBe("/api/catalogs/demo/export?format=yaml");
    expect(screen.getByTestId("export-json").getAttribute("href")).toBe("/api/catalogs/demo/export?format=json");
    expect(screen.queryByTestId("apply-panel")).toBeNull();
  });

  it("shows a chosen file's plan, applies it only once confirmed, and shows what it did", async () => {
    render(createElement(CatalogCodePage, { catalogId: "demo", mayApply: true }));
    vi.mocked(applyCatalogFileAction).mockResolvedValueOnce({ ok: true, data: PLAN });
    await chooseFile();
    await screen.findByTestId("apply-plan");
    expect(vi.mocked(applyCatalogFileAction)).toHaveBeenCalledWith("demo", { text: TEXT, dryRun: true, prune: false });
    expect(text("apply-plan-counts")).toBe("The file would create 1 · change 1 · delete 0 · 20 unchanged · 1 pending");
    expect(text("apply-changed")).toContain("tools/bash: enabled, tags");
    expect(text("apply-pending")).toContain("tools/gh__search: No mcp source");

    vi.mocked(applyCatalogFileAction).mockResolvedValueOnce({ ok: true, data: PLAN });
    fireEvent.click(screen.getByTestId("apply-confirm"));
    await screen.findByTestId("apply-result");
    expect(vi.mocked(applyCatalogFileAction)).toHaveBeenLastCalledWith("demo", { text: TEXT, dryRun: false, prune: false });
    expect(text("apply-plan-counts")).toMatch(/^Applied: create 1/);
  });

  it("plans again with prune when it is ticked, and offers no apply for a plan that changes nothing", async () => {
    render(createElement(CatalogCodePage, { catalogId: "demo", mayApply: true }));
    vi.mocked(applyCatalogFileAction).mockResolvedValueOnce({ ok: true, data: PLAN });
    await chooseFile();
    await screen.findByTestId("apply-plan");
    vi.mocked(applyCatalogFileAction).mockResolvedValueOnce({ ok: true, data: { ...PLAN, created: [], changed: [], pending: [] } });
    fireEvent.click(screen.getByTestId("apply-prune"));
    await screen.findByTestId("apply-plan-empty");
    expect(vi.mocked(applyCatalogFileAction)).toHaveBeenLastCalledWith("demo", { text: TEXT, dryRun: true, prune: true });
    expect((screen.getByTestId("apply-confirm") as HTMLButtonElement).disabled).toBe(true);
  });

  it("lists every problem of a refused file by its path", async () => {
    render(createElement(CatalogCodePage, { catalogId: "demo", mayApply: true }));
    const problems = [
      { field: "tools.1.name", message: "Tool name must match ^[a-zA-Z0-9_-]{1,64}$." },
      { field: "mcpServers.0.headers.Authorization", message: "This is a secret: write it as a reference." },
    ];
    vi.mocked(applyCatalogFileAction).mockResolvedValueOnce({
      ok: false,
      error: { code: "bad_request", message: "Catalog file rejected: 2 problems.", problems },
    });
    await chooseFile();
    const error = await screen.findByTestId("apply-error");
    expect(error.textContent).toContain("shop.catalog.yaml cannot be applied: nothing was changed.");
    expect(error.textContent).toContain("tools.1.name: Tool name");
    expect(error.textContent).toContain("mcpServers.0.headers.Authorization: This is a secret");
    expect(screen.queryByTestId("apply-confirm")).toBeNull();
  });
});

describe("cloning from the catalogs list", () => {
  afterEach(cleanup);

  it("clones into the team chosen, under the name given, and opens the copy", async () => {
    const catalog = {
      id: "shop",
      teamId: "default",
      name: "Shop",
      description: "",
      revision: 3,
      toolCount: 20,
      enabledCount: 18,
      updatedAt: "",
    } as CatalogSummary;
    const teams = [
      { id: "default", name: "Default", role: "admin" as const },
      { id: "prod", name: "Production", role: "admin" as const },
    ];
    render(createElement(CatalogCloneForm, { catalog, teams, onCancel: vi.fn() }));
    expect((screen.getByLabelText("Name of the copy") as HTMLInputElement).value).toBe("Shop (copy)");
    fireEvent.change(screen.getByTestId("clone-team"), { target: { value: "prod" } });
    vi.mocked(cloneCatalogAction).mockResolvedValueOnce({
      ok: true,
      data: { id: "shop-copy", teamId: "prod", name: "Shop (copy)", description: "", revision: 1 },
    });
    fireEvent.click(screen.getByTestId("clone-submit-shop"));
    await waitFor(() => expect(push).toHaveBeenCalledWith("/catalogs/shop-copy/tools"));
    expect(vi.mocked(cloneCatalogAction)).toHaveBeenCalledWith("shop", { name: "Shop (copy)", team: "prod" });
  });
});
