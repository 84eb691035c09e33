// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement, type ComponentProps, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { saveAgentAction } from "@/app/catalogs/[catalog]/agents/actions";
import { saveRulesAction } from "@/app/catalogs/[catalog]/rules/actions";
import { updateToolAction } from "@/app/catalogs/[catalog]/tools/actions";
import { AgentsEditor } from "@/components/agents-editor";
import { CatalogAccessProvider } from "@/components/catalog-access";
import { RulesEditor } from "@/components/rules-editor";
import { ToolEditor } from "@/components/tool-editor";
import type { ToolRecord } from "@/db/queries/tools";
import type { ActionResult } from "@/lib/action-result";
import type { CatalogRules } from "@/lib/rules/catalog-rules";

vi.mock("@/app/catalogs/[catalog]/agents/actions", () => ({ saveAgentAction: vi.fn(), deleteAgentAction: vi.fn() }));
vi.mock("@/app/catalogs/[catalog]/rules/actions", () => ({ saveRulesAction: vi.fn(), previewModelRulesAction: vi.fn() }));
vi.mock("@/app/catalogs/[catalog]/tools/actions", () => ({ createToolAction: vi.fn(), updateToolAction: vi.fn() }));
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn(), back: vi.fn() }) }));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.mocked(saveAgentAction).mockReset();
  vi.mocked(saveRulesAction).mockReset();
  vi.mocked(updateToolAction).mockReset();
});

const asEditor = (element: ReactNode) =>
  // The children go as createElement's third argument, which the props' type does not see.
  createElement(CatalogAccessProvider, { access: "write" } as ComponentProps<typeof CatalogAccessProvider>, element);

const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

/** Whether leaving the page now would ask first (useUnsavedChangesWarning). */
function asksBeforeLeaving(): boolean {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

/** A save that answers when the test says. */
function pendingSave<T>() {
  let answer!: (result: ActionResult<T>) => void;
  const promise = new Promise<ActionResult<T>>((resolve) => {
    answer = resolve;
  });
  return { promise, answer: (result: ActionResult<T>) => act(async () => answer(result)) };
}

const rules: CatalogRules = {
  modelRules: [
    { id: "r1", name: "First", include: ["gpt-"], exclude: [], enable: [], disable: [] },
    { id: "r2", name: "Second", include: ["claude-"], exclude: [], enable: ["bash"], disable: [] },
  ],
  providers: [{ id: "openai", name: "OpenAI", webSearch: true }],
  overrides: [],
  searchServiceConfigured: false,
};
const rulesEditor = (shown: CatalogRules) =>
  asEditor(createElement(RulesEditor, { catalogId: "demo", rules: shown, toolNames: ["bash"], knownModels: [], agents: ["build"] }));

describe("the rules editor's forms", () => {
  it("check a rule against the server's schema before sending it, and show the problem at its field", async () => {
    render(rulesEditor(rules));
    const name = within(screen.getByTestId("model-rule-1")).getByLabelText("Rule name");
    type(name, "Bad\u0007name");
    fireEvent.click(screen.getByTestId("save-model-rules"));
    const errors = await screen.findByTestId("rule-errors-1");
    expect(errors.textContent).toContain("Rule 2 “Bad\u0007name” · Rule name:");
    expect(errors.textContent).not.toContain("modelRules.1.name");
    expect(errors.textContent).toContain("control character");
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(saveRulesAction).not.toHaveBeenCalled();
  });

  it("send the rules as read from the text typed, and keep each row's text with its row when one before it goes", async () => {
    render(rulesEditor(rules));
    type(within(screen.getByTestId("model-rule-1")).getByLabelText(/^Include models/), " claude-, o* ,");
    type(within(screen.getByTestId("model-rule-1")).getByLabelText("Rule name"), "  Second, edited ");
    fireEvent.click(within(screen.getByTestId("model-rule-0")).getByText("Remove"));
    expect((within(screen.getByTestId("model-rule-0")).getByLabelText("Rule name") as HTMLInputElement).value).toBe("  Second, edited ");
    fireEvent.click(screen.getByText("Add rule"));
    expect((within(screen.getByTestId("model-rule-1")).getByLabelText("Rule name") as HTMLInputElement).value).toBe("New rule");
    fireEvent.click(within(screen.getByTestId("model-rule-1")).getByText("Remove"));
    vi.mocked(saveRulesAction).mockResolvedValueOnce({ ok: true, data: rules });
    fireEvent.click(screen.getByTestId("save-model-rules"));
    await vi.waitFor(() => expect(saveRulesAction).toHaveBeenCalledTimes(1));
    expect(vi.mocked(saveRulesAction).mock.calls[0]).toEqual([
      "demo",
      { modelRules: [{ id: "r2", name: "Second, edited", include: ["claude-", "o*"], exclude: [], enable: ["bash"], disable: [] }] },
    ]);
  });

  it("keep the draft through a failed save and a refetch, and what is typed while a save runs stays unsaved", async () => {
    const { rerender } = render(rulesEditor(rules));
    const provider = screen.getByLabelText("Provider name") as HTMLInputElement;
    type(provider, "OpenAI, renamed");
    expect(asksBeforeLeaving()).toBe(true);
    vi.mocked(saveRulesAction).mockRejectedValueOnce(new TypeError("Failed to fetch"));
    fireEvent.click(screen.getByText("Save providers"));
    expect((await screen.findByTestId("save-error")).textContent).toContain("Your edits are kept");
    rerender(rulesEditor({ ...rules, providers: [{ id: "openai", name: "OpenAI, from the server", webSearch: false }] }));
    expect(provider.value).toBe("OpenAI, renamed");

    const save = pendingSave<CatalogRules>();
    vi.mocked(saveRulesAction).mockReturnValueOnce(save.promise);
    fireEvent.click(screen.getByTestId("save-retry"));
    await vi.waitFor(() => expect(saveRulesAction).toHaveBeenCalledTimes(2));
    expect(vi.mocked(saveRulesAction).mock.calls[1][1]).toEqual({
      providers: [{ id: "openai", name: "OpenAI, renamed", webSearch: true }],
      searchServiceConfigured: false,
    });
    type(provider, "OpenAI, renamed again");
    await save.answer({ ok: true, data: rules });
    expect(screen.queryByTestId("save-error")).toBeNull();
    expect(provider.value).toBe("OpenAI, renamed again");
    expect(asksBeforeLeaving()).toBe(true);
    type(provider, "OpenAI, renamed");
    expect(asksBeforeLeaving()).toBe(false);
  });

  it("add providers and overrides as rows of their own", () => {
    render(rulesEditor(rules));
    fireEvent.click(screen.getByText("Add provider"));
    expect(screen.getByTestId("provider-new-provider")).toBeTruthy();
    expect(screen.getByText("No overrides.")).toBeTruthy();
    fireEvent.click(screen.getByText("Add override"));
    expect((screen.getByLabelText(/^Tool/) as HTMLInputElement).value).toBe("bash");
    expect(screen.queryByText("No overrides.")).toBeNull();
  });
});

describe("the agent form", () => {
  const agent = {
    name: "build",
    mode: "primary" as const,
    description: "Builds.",
    permissions: [{ pattern: "*", action: "allow" as const }],
    baseTools: ["read"],
  };
  const openForm = () => {
    render(asEditor(createElement(AgentsEditor, { catalogId: "demo", agents: [agent], toolNames: ["read", "bash"] })));
    fireEvent.click(screen.getByTestId("edit-agent-build"));
    return screen.getByTestId("agent-form-build");
  };

  it("checks the agent against the server's schema before sending it", async () => {
    const form = openForm();
    fireEvent.click(within(form).getByTestId("add-permission"));
    type(within(form).getByLabelText("Pattern 2"), "bash\u001b");
    fireEvent.click(within(form).getByTestId("save-agent"));
    await vi.waitFor(() => expect(within(form).getByLabelText("Pattern 2").getAttribute("aria-invalid")).toBe("true"));
    expect(within(screen.getByTestId("permission-1")).getByRole("alert").textContent).toContain("permissions.1.pattern");
    expect(saveAgentAction).not.toHaveBeenCalled();
  });

  it("sends the rules in their new order, with the base tools read from the text typed", async () => {
    const form = openForm();
    fireEvent.click(within(form).getByTestId("add-permission"));
    type(within(form).getByLabelText("Pattern 2"), "bash");
    fireEvent.click(within(screen.getByTestId("permission-1")).getByLabelText("Move up"));
    expect((within(form).getByLabelText("Pattern 1") as HTMLInputElement).value).toBe("bash");
    type(within(form).getByLabelText(/^Base tools/), "read, bash,");
    vi.mocked(saveAgentAction).mockResolvedValueOnce({ ok: true, data: agent });
    fireEvent.click(within(form).getByTestId("save-agent"));
    await vi.waitFor(() => expect(saveAgentAction).toHaveBeenCalledTimes(1));
    expect(vi.mocked(saveAgentAction).mock.calls[0]).toEqual([
      "demo",
      {
        ...agent,
        permissions: [
          { pattern: "bash", action: "deny" },
          { pattern: "*", action: "allow" },
        ],
        baseTools: ["read", "bash"],
      },
      "build",
    ]);
  });
});

describe("the tool editor's checks", () => {
  const tool = {
    name: "notes_get",
    source: "custom",
    summary: "Read a note.",
    description: "Returns one note.",
    inputSchema: { type: "object", properties: {} },
    tags: ["notes"],
  } as unknown as ToolRecord;
  const renderEditor = () => render(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(ToolEditor, { catalogId: "demo", tool })));

  it("show a field's problems once it is edited, with their place in the schema, and nothing is sent while there are some", async () => {
    renderEditor();
    type(screen.getByTestId("schema-editor"), '{"type": "array"}');
    const schemaError = await screen.findByTestId("error-tool-schema");
    expect(schemaError.querySelector("code")?.textContent).toBe("inputSchema.type");
    expect(screen.queryByTestId("error-tool-name")).toBeNull();
    type(screen.getByLabelText(/^Name/), "not a name");
    expect(await screen.findByTestId("error-tool-name")).toBeTruthy();
    fireEvent.click(screen.getByTestId("save-tool"));
    await vi.waitFor(() => expect(screen.getAllByRole("alert").length).toBeGreaterThanOrEqual(2));
    expect(updateToolAction).not.toHaveBeenCalled();
  });

  it("show the server's refusal at its fields until each is edited", async () => {
    renderEditor();
    vi.mocked(updateToolAction).mockResolvedValueOnce({
      ok: false,
      error: {
        code: "bad_request",
        message: "Invalid input",
        problems: [
          { field: "name", message: "A tool named so exists." },
          { field: "tags.0", message: "Tag taken." },
        ],
      },
    });
    fireEvent.click(screen.getByTestId("save-tool"));
    expect((await screen.findByTestId("error-tool-name")).textContent).toContain("A tool named so exists.");
    expect(screen.getByTestId("error-tool-tags").textContent).toContain("tags.0 Tag taken.");
    type(screen.getByLabelText(/^Name/), "notes_read");
    await vi.waitFor(() => expect(screen.queryByTestId("error-tool-name")).toBeNull());
    expect(screen.getByTestId("error-tool-tags").textContent).toContain("Tag taken.");
  });
});
