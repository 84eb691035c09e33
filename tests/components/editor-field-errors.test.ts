// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement, type ComponentProps, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { saveAgentAction } from "@/app/catalogs/[catalog]/agents/actions";
import { saveRulesAction } from "@/app/catalogs/[catalog]/rules/actions";
import { AgentsEditor } from "@/components/agents-editor";
import { CatalogAccessProvider } from "@/components/catalog-access";
import { RulesEditor } from "@/components/rules-editor";
import type { FieldError } from "@/lib/tools/validate";

vi.mock("@/app/catalogs/[catalog]/agents/actions", () => ({ saveAgentAction: vi.fn(), deleteAgentAction: vi.fn() }));
vi.mock("@/app/catalogs/[catalog]/rules/actions", () => ({ saveRulesAction: vi.fn(), previewModelRulesAction: vi.fn() }));
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn(), back: vi.fn() }) }));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const refused = (problems: FieldError[]) => ({ ok: false as const, error: { code: "bad_request", message: "Invalid input", problems } });

function asEditor(element: ReactNode) {
  // The children go as createElement's third argument, which the props' type does not see.
  render(createElement(CatalogAccessProvider, { access: "write" } as ComponentProps<typeof CatalogAccessProvider>, element));
}

/** What a screen reader reads with the field: the text of the elements its aria-describedby names. */
function description(field: HTMLElement): string {
  const ids = field.getAttribute("aria-describedby")?.split(/\s+/) ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
}

function expectInvalid(field: HTMLElement, message: string) {
  expect(field.getAttribute("aria-invalid")).toBe("true");
  expect(description(field)).toContain(message);
}

function expectValid(field: HTMLElement) {
  expect(field.getAttribute("aria-invalid")).toBeNull();
  expect(field.getAttribute("aria-describedby")).toBeNull();
}

afterEach(() => {
  cleanup();
  vi.mocked(saveAgentAction).mockReset();
  vi.mocked(saveRulesAction).mockReset();
});

describe("the agents editor", () => {
  it("marks each field the server refused as invalid, described by its problems", async () => {
    const agent = {
      name: "build",
      mode: "primary" as const,
      description: "Builds.",
      permissions: [{ pattern: "*", action: "allow" as const }],
      baseTools: ["read"],
    };
    asEditor(createElement(AgentsEditor, { catalogId: "demo", agents: [agent], toolNames: ["read"] }));
    fireEvent.click(screen.getByTestId("edit-agent-build"));
    const name = screen.getByLabelText("Name");
    const baseTools = screen.getByLabelText(/^Base tools/);
    const pattern = screen.getByLabelText("Pattern 1");
    expectValid(name);

    vi.mocked(saveAgentAction).mockResolvedValueOnce(
      refused([
        { field: "name", message: "Use lower-case letters." },
        { field: "baseTools.0", message: "No tool is called that." },
        { field: "permissions.0.pattern", message: "A pattern cannot be empty." },
      ]),
    );
    fireEvent.click(screen.getByTestId("save-agent"));
    await screen.findByText("Use lower-case letters.");
    expectInvalid(name, "Use lower-case letters.");
    expectInvalid(baseTools, "No tool is called that.");
    expectInvalid(pattern, "A pattern cannot be empty.");
    expectValid(screen.getByLabelText(/^Description/));
  });
});

describe("the rules editor", () => {
  const rules = {
    modelRules: [{ id: "r1", name: "Rule", include: ["gpt-"], exclude: [], enable: [], disable: [] }],
    providers: [{ id: "openai", name: "OpenAI", webSearch: true }],
    overrides: [{ tool: "bash", models: [], summary: "Run a command." }],
    searchServiceConfigured: false,
  };
  const renderRules = () => asEditor(createElement(RulesEditor, { catalogId: "demo", rules, toolNames: ["bash"], knownModels: [], agents: ["build"] }));

  it("marks a model rule's refused field as invalid, described by its problems", async () => {
    renderRules();
    vi.mocked(saveRulesAction).mockResolvedValueOnce(refused([{ field: "modelRules.0.include.0", message: "Not a model pattern." }]));
    fireEvent.click(screen.getByTestId("save-model-rules"));
    await screen.findByText("Not a model pattern.");
    expectInvalid(screen.getByLabelText(/^Include models/), "Not a model pattern.");
    expectValid(screen.getByLabelText(/^Exclude models/));
    expectValid(screen.getByLabelText("Rule name"));
  });

  it("names a refused field by its rule and label, not by its path", async () => {
    renderRules();
    vi.mocked(saveRulesAction).mockResolvedValueOnce(refused([{ field: "modelRules.0.include.0", message: "Not a model pattern." }]));
    fireEvent.click(screen.getByTestId("save-model-rules"));
    const problem = await screen.findByText("Not a model pattern.", { exact: false, selector: "[data-testid=rule-errors-0] div" });
    expect(problem.textContent).toBe("Rule 1 “Rule” · Include models “gpt-”: Not a model pattern.");
    expect(problem.textContent).not.toContain("modelRules.0");
  });

  it("tells of a tool name the catalog lacks as it is typed, and puts the name meant in its place", () => {
    renderRules();
    fireEvent.change(screen.getByLabelText(/^Disable tools/), { target: { value: "bsah" } });
    const unknown = screen.getByTestId("rule-unknown-0-disable-0");
    expect(unknown.textContent).toContain("Disable tools: “bsah” is not a tool of this catalog. Did you mean “bash”?");
    fireEvent.click(screen.getByText("Use “bash”"));
    expect((screen.getByLabelText(/^Disable tools/) as HTMLInputElement).value).toBe("bash");
    expect(screen.queryByTestId("rule-unknown-0-disable-0")).toBeNull();
    expect(saveRulesAction).not.toHaveBeenCalled();
  });

  it("does the same for providers and overrides", async () => {
    renderRules();
    vi.mocked(saveRulesAction).mockResolvedValueOnce(refused([{ field: "providers.0.id", message: "Ids are lower-case." }]));
    fireEvent.click(screen.getByText("Save providers"));
    await screen.findByText("Ids are lower-case.");
    expectInvalid(screen.getByLabelText("Provider id"), "Ids are lower-case.");
    expectValid(screen.getByLabelText("Provider name"));

    vi.mocked(saveRulesAction).mockResolvedValueOnce(refused([{ field: "overrides.0.tool", message: "No such tool." }]));
    fireEvent.click(screen.getByText("Save overrides"));
    await screen.findByText("No such tool.");
    expectInvalid(screen.getByLabelText(/^Tool/), "No such tool.");
    expectValid(screen.getByLabelText(/^Summary/));
  });

  it("marks an override's parameter defaults invalid: typed text that is no JSON object before saving, a default the server refuses after", async () => {
    renderRules();
    const defaults = screen.getByLabelText(/^Parameter defaults/);
    fireEvent.change(defaults, { target: { value: "{limit: 25}" } });
    fireEvent.click(screen.getByText("Save overrides"));
    await screen.findByText(/Parameter defaults are a JSON object/);
    expect(saveRulesAction).not.toHaveBeenCalled();

    fireEvent.change(defaults, { target: { value: '{"limt": 25}' } });
    fireEvent.change(screen.getByLabelText(/^readOnlyHint/), { target: { value: "true" } });
    const message = 'Tool "bash" has no parameter "limt" (its parameters: command).';
    vi.mocked(saveRulesAction).mockResolvedValueOnce(refused([{ field: "overrides.0.defaults.limt", message }]));
    fireEvent.click(screen.getByText("Save overrides"));
    await screen.findByText(message, { exact: false });
    expect(vi.mocked(saveRulesAction).mock.calls[0][1]).toEqual({
      overrides: [{ tool: "bash", models: [], summary: "Run a command.", defaults: { limt: 25 }, annotations: { readOnlyHint: true } }],
    });
    expectInvalid(defaults, message);
    expectValid(screen.getByLabelText(/^Summary/));
  });
});
