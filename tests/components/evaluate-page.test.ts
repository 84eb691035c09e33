// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { type ComponentProps, createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { checkCasesAction } from "@/app/catalogs/[catalog]/evaluate/actions";
import { CatalogAccessProvider } from "@/components/catalog-access";
import { EvaluatePage } from "@/components/evaluate-page";

vi.mock("@/app/catalogs/[catalog]/evaluate/actions", () => ({ checkCasesAction: vi.fn() }));

const fetchDouble = vi.fn<typeof fetch>();

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const page = createElement(EvaluatePage, { catalogId: "demo", selectors: ["local", "openai"] });
  render(
    createElement(
      QueryClientProvider,
      { client: queryClient },
      createElement(CatalogAccessProvider, { access: "write" } as ComponentProps<typeof CatalogAccessProvider>, page),
    ),
  );
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });
const runButton = () => screen.getByTestId("run-evaluation") as HTMLButtonElement;
/** The bodies the page posted to start runs. */
const posted = () => fetchDouble.mock.calls.filter(([, init]) => init?.method === "POST").map(([, init]) => JSON.parse(String(init?.body)));

describe("the evaluation page's form", () => {
  beforeEach(() => {
    // The set's past runs: none.
    fetchDouble.mockImplementation(async () => Response.json({ evaluations: [] }));
    vi.stubGlobal("fetch", fetchDouble);
    // Each test starts from a first visit: nothing kept from another.
    localStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchDouble.mockReset();
    vi.mocked(checkCasesAction).mockReset();
  });

  it("counts the cases written, and adds a row without taking the focus from the one typed in", () => {
    renderPage();
    expect(screen.getByTestId("case-count").textContent).toBe("0 cases");
    expect(runButton().disabled).toBe(true);
    const request = input("Request of case 1");
    request.focus();
    type(request, "refund the card payment");
    type(input("Expected tools of case 1"), "op_a1, op_b2");
    expect(screen.getByTestId("case-count").textContent).toBe("1 cases");
    expect(runButton().disabled).toBe(false);

    fireEvent.click(screen.getByTestId("add-case"));
    expect(screen.getByTestId("case-1")).toBeTruthy();
    expect(document.activeElement).toBe(request);
    expect(input("Request of case 1").value).toBe("refund the card payment");
    expect(screen.getByTestId("case-count").textContent).toBe("1 cases");
  });

  it("imports a labelled set under the file's name, and leaves out the cases naming tools the catalog lacks", async () => {
    vi.mocked(checkCasesAction).mockResolvedValue({ ok: true, data: [{ index: 1, id: "elsewhere", names: ["github_create_pull_request"] }] });
    renderPage();
    const set = {
      cases: [
        { id: "refund", query: "refund the card payment", expected: ["op_a1"] },
        { id: "elsewhere", query: "open a pull request", expected: ["github_create_pull_request"] },
        { id: 3, query: "translate this paragraph", expected: ["op_c3"] },
      ],
    };
    const file = new File([JSON.stringify(set)], "smoke.json", { type: "application/json" });
    fireEvent.change(screen.getByTestId("import-cases"), { target: { files: [file] } });

    expect((await screen.findByTestId("unknown-tools")).textContent).toContain("case 2 (elsewhere): github_create_pull_request");
    expect((screen.getByTestId("set-name") as HTMLInputElement).value).toBe("smoke");
    expect(screen.getByTestId("case-count").textContent).toBe("3 cases");
    fireEvent.click(screen.getByTestId("leave-out-unknown"));
    expect(screen.queryByTestId("unknown-tools")).toBeNull();
    expect(screen.getByTestId("case-count").textContent).toBe("2 cases");
    expect(input("Request of case 2").value).toBe("translate this paragraph");
    expect(input("Expected tools of case 2").value).toBe("op_c3");
  });

  it("says what is wrong with a file that is not a labelled set", async () => {
    renderPage();
    fireEvent.change(screen.getByTestId("import-cases"), { target: { files: [new File(["{}"], "notes.json")] } });
    expect((await screen.findByTestId("cases-problem")).textContent).toContain("notes.json is not a labelled set");
    expect(checkCasesAction).not.toHaveBeenCalled();
  });

  it("starts a run with the cases, k, selector and set name; a refused run keeps everything typed", async () => {
    vi.mocked(checkCasesAction).mockResolvedValue({ ok: true, data: [] });
    fetchDouble.mockImplementation(async (_url, init) =>
      init?.method === "POST" ? Response.json({ error: { message: "The model rate limit is reached." } }, { status: 429 }) : Response.json({ evaluations: [] }),
    );
    renderPage();
    type(input("Request of case 1"), "  refund the card payment ");
    type(input("Expected tools of case 1"), "op_a1,");
    type(screen.getByTestId("set-name"), " smoke ");
    type(screen.getByTestId("k"), "3");
    fireEvent.change(screen.getByTestId("selector"), { target: { value: "openai" } });
    expect(screen.getByText("A model selector makes one call per case: slow, and paid for.")).toBeTruthy();
    fireEvent.click(runButton());

    expect((await screen.findByTestId("run-error")).textContent).toBe("The model rate limit is reached.");
    expect(vi.mocked(checkCasesAction).mock.calls[0]).toEqual(["demo", [{ query: "refund the card payment", expected: ["op_a1"] }]]);
    expect(posted()).toEqual([{ cases: [{ query: "refund the card payment", expected: ["op_a1"] }], k: 3, selector: "openai", name: "smoke" }]);
    expect(input("Request of case 1").value).toBe("  refund the card payment ");
    expect((screen.getByTestId("k") as HTMLInputElement).value).toBe("3");
    expect(runButton().disabled).toBe(false);
  });

  it("finds the cases, settings and the run last shown as they were left, on a revisit of the same catalog", async () => {
    vi.mocked(checkCasesAction).mockResolvedValue({ ok: true, data: [] });
    const run = { id: "run-1", revision: 3, setName: "smoke", selector: "local", k: 3, status: "done", progress: { done: 1, total: 1 } };
    fetchDouble.mockImplementation(async (url, init) => {
      if (init?.method === "POST") return Response.json({ evaluation: { ...run, status: "running", metrics: null } }, { status: 202 });
      if (String(url).endsWith("/run-1")) return Response.json({ evaluation: { ...run, metrics: null, fallbacks: 0, misses: [], error: null } });
      return Response.json({ evaluations: [] });
    });
    renderPage();
    type(input("Request of case 1"), "refund the card payment");
    type(input("Expected tools of case 1"), "op_a1");
    type(screen.getByTestId("set-name"), "smoke");
    type(screen.getByTestId("k"), "3");
    fireEvent.click(runButton());
    await screen.findByTestId("run-result");
    cleanup();

    renderPage();
    expect(await screen.findByTestId("run-result")).toBeTruthy();
    expect(input("Request of case 1").value).toBe("refund the card payment");
    expect(input("Expected tools of case 1").value).toBe("op_a1");
    expect((screen.getByTestId("set-name") as HTMLInputElement).value).toBe("smoke");
    expect((screen.getByTestId("k") as HTMLInputElement).value).toBe("3");
  });

  it("does not start a run whose cases name unknown tools", async () => {
    vi.mocked(checkCasesAction).mockResolvedValue({ ok: true, data: [{ index: 0, names: ["nope"] }] });
    renderPage();
    type(input("Request of case 1"), "do the thing");
    type(input("Expected tools of case 1"), "nope");
    fireEvent.click(runButton());
    expect((await screen.findByTestId("run-error")).textContent).toBe("Fix the cases first.");
    expect(screen.getByTestId("unknown-tools").textContent).toContain("case 1: nope");
    expect(posted()).toEqual([]);
  });

  it("reports and leaves out the row of an unknown case, not the case at its position among the sent ones, when an empty row comes first", async () => {
    // The server numbers the cases it was sent; the empty first row was not sent, so its case 0 is the form's row 1.
    vi.mocked(checkCasesAction).mockResolvedValue({ ok: true, data: [{ index: 0, names: ["nope"] }] });
    renderPage();
    fireEvent.click(screen.getByTestId("add-case"));
    fireEvent.click(screen.getByTestId("add-case"));
    type(input("Request of case 2"), "do the thing");
    type(input("Expected tools of case 2"), "nope");
    type(input("Request of case 3"), "refund the card payment");
    type(input("Expected tools of case 3"), "op_a1");
    fireEvent.click(runButton());
    expect((await screen.findByTestId("unknown-tools")).textContent).toContain("case 2: nope");

    fireEvent.click(screen.getByTestId("leave-out-unknown"));
    expect(input("Request of case 1").value).toBe("");
    expect(input("Request of case 2").value).toBe("refund the card payment");
    expect(screen.queryByLabelText("Request of case 3")).toBeNull();
  });

  it("says so beside the settings when k is out of range, and asks the server nothing", async () => {
    renderPage();
    type(input("Request of case 1"), "refund the card payment");
    type(input("Expected tools of case 1"), "op_a1");
    type(screen.getByTestId("k"), "0");
    fireEvent.click(runButton());
    expect((await screen.findByTestId("run-settings-errors")).textContent).toContain("k");
    expect(screen.getByTestId("k").getAttribute("aria-invalid")).toBe("true");
    expect(checkCasesAction).not.toHaveBeenCalled();
    expect(posted()).toEqual([]);
  });
});
