import { beforeEach, describe, expect, it, vi } from "vitest";
import * as toolListRoute from "@/app/api/catalogs/[catalog]/tool-list/route";
import * as toolSearchRoute from "@/app/api/catalogs/[catalog]/tool-search/route";
import { toolSearchAction } from "@/app/catalogs/[catalog]/playground/actions";
import { toolListAction } from "@/app/catalogs/[catalog]/simulator/actions";
import { createPasswordUser } from "@/app/_services/auth";
import type { Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { getDecision } from "@/db/queries/decisions";
import { createTeam } from "@/db/queries/teams";
import { seed } from "@/db/seed";
import { jsonRequest, params, useFreshDatabase } from "./helpers";
import { signedInAs } from "./sessions";

// The pages' server actions read the session from the request's headers: here, the cookie of whoever the test signs in.
let cookie = "";
vi.mock("next/headers", () => ({ headers: async () => new Headers(cookie ? { cookie } : {}) }));

let db: Db;

beforeEach(async () => {
  db = await useFreshDatabase();
  await seed(db, { demo: true });
  cookie = await signedInAs(db, "viewer@example.com", "viewer");
});

/** A catalog of a team the signed-in viewer is not part of. */
async function othersCatalog(): Promise<string> {
  const owner = await createPasswordUser({ email: "owner@example.com", name: "owner", password: "a long enough password" });
  const team = await createTeam(db, { name: "Others" }, owner.id);
  return (await createCatalog(db, { name: "Theirs", teamId: team.id }, "tests")).id;
}

describe("the simulator's tool-list action", () => {
  it("answers a viewer what POST …/tool-list answers", async () => {
    const config = { model: "gpt-5", agent: "build", format: "openai", flags: ["experimental.lsp"] };
    const result = await toolListAction("demo", config);
    const route = await (await toolListRoute.POST(jsonRequest("POST", config), params({ catalog: "demo" }))).json();
    expect(result).toEqual({ ok: true, data: route });
    expect(route.trace.length).toBeGreaterThan(0);
  });

  it("hides another team's catalog from a viewer, as the route does", async () => {
    const theirs = await othersCatalog();
    const result = await toolListAction(theirs, { model: "gpt-5", agent: "build" });
    expect(result).toEqual({
      ok: false,
      error: { code: "not_found", message: `Catalog "${theirs}" not found.`, field: "catalog", problems: expect.any(Array) },
    });
  });

  it("refuses a caller who is not signed in", async () => {
    cookie = "";
    const result = await toolListAction("demo", { model: "gpt-5", agent: "build" });
    expect(result).toMatchObject({ ok: false, error: { code: "unauthorized" } });
  });

  it("says which field of a configuration is wrong", async () => {
    const result = await toolListAction("demo", { model: "", agent: "build", format: "xml" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("bad_request");
    expect(result.error.problems.map((problem) => problem.field).sort()).toEqual(["format", "model"]);
    expect(result.error.problems.find((problem) => problem.field === "model")?.message).toBe("Name a model id, e.g. gpt-5.");
  });
});

/** A search's answer less what differs from call to call. */
function perCall<T extends { conversationId: string; decisionId: string; latencyMs: number }>({ conversationId, decisionId, latencyMs, ...answer }: T) {
  return answer;
}

describe("the ToolSearch console's action", () => {
  it("answers a viewer what POST …/tool-search answers, and records the decision", async () => {
    const search = { model: "gpt-5", agent: "plan", query: "select:slack_post_message,bash" };
    const result = await toolSearchAction("demo", search);
    const route = await (await toolSearchRoute.POST(jsonRequest("POST", search), params({ catalog: "demo" }))).json();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(perCall(result.data)).toEqual(perCall(route));
    expect(result.data.tools.map((tool) => tool.name)).toEqual(["slack_post_message"]);
    expect(result.data.rejected.map((rejection) => rejection.name)).toEqual(["bash"]);
    expect(await getDecision(db, result.data.decisionId)).toMatchObject({ kind: "tool-search", catalogId: "demo", conversationId: result.data.conversationId });
  });

  it("hides another team's catalog from a viewer, as the route does", async () => {
    const theirs = await othersCatalog();
    const result = await toolSearchAction(theirs, { model: "gpt-5", agent: "build", query: "select:read" });
    expect(result).toMatchObject({ ok: false, error: { code: "not_found", message: `Catalog "${theirs}" not found.` } });
  });

  it("says what is wrong with a search", async () => {
    const result = await toolSearchAction("demo", { model: "gpt-5", agent: "build", query: "  ", maxResults: 99 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("bad_request");
    expect(result.error.problems.map((problem) => problem.field).sort()).toEqual(["maxResults", "query"]);
    expect(result.error.problems.find((problem) => problem.field === "query")?.message).toBe("Say what the tool should do, or name it.");
  });
});
