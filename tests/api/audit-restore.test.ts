import { beforeEach, describe, expect, it } from "vitest";
import * as agentRoute from "@/app/api/catalogs/[catalog]/agents/[name]/route";
import * as agentsRoute from "@/app/api/catalogs/[catalog]/agents/route";
import * as restoreRoute from "@/app/api/catalogs/[catalog]/audit/[id]/restore/route";
import * as auditRoute from "@/app/api/catalogs/[catalog]/audit/route";
import * as rulesRoute from "@/app/api/catalogs/[catalog]/rules/route";
import * as toolAuditRoute from "@/app/api/catalogs/[catalog]/tools/[name]/audit/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { previewRestore } from "@/app/_services/restore";
import type { Db } from "@/db/client";
import { recordChanges } from "@/db/queries/audit";
import { UNKNOWN_ACTOR } from "@/lib/auth/policy";
import { apiRequest, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";
import { browserHeaders, signedInAs } from "./sessions";

interface Entry {
  id: number;
  action: string;
  subjectKind: string;
  subject: string;
  revision: number;
  actor: string;
  actorName: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const team = params({ catalog: "team" });

const draft = (name: string) => ({
  name,
  summary: `Look up ${name}.`,
  description: `Looks up ${name} by its id.`,
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
});

async function toolHistory(name: string): Promise<Entry[]> {
  const response = await toolAuditRoute.GET(jsonRequest("GET"), params({ catalog: "team", name }));
  expect(response.status).toBe(200);
  return (await response.json()).entries;
}

async function historyOf(of: "rules" | "agents"): Promise<Entry[]> {
  const response = await auditRoute.GET(apiRequest(`/api/catalogs/team/audit?of=${of}`), team);
  expect(response.status).toBe(200);
  return (await response.json()).entries;
}

function restore(entry: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  return restoreRoute.POST(jsonRequest("POST", body, headers), params({ catalog: "team", id: String(entry) }));
}

async function getTool(name: string): Promise<Response> {
  return toolRoute.GET(jsonRequest("GET"), params({ catalog: "team", name }));
}

async function revision(): Promise<number> {
  return (await (await catalogsRoute.GET(jsonRequest("GET"))).json()).catalogs.find((catalog: { id: string }) => catalog.id === "team").revision;
}

let db: Db;

beforeEach(async () => {
  db = await useFreshDatabase();
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
});

describe("who made a change, in the audit history", () => {
  it("is the person's name and email, the token, the sync, and says so where it was never recorded", async () => {
    const cookie = await signedInAs(db, "ada@example.com", "editor");
    expect((await toolsRoute.POST(jsonRequest("POST", draft("orders"), browserHeaders(cookie)), team)).status).toBe(201);
    await toolRoute.PATCH(jsonRequest("PATCH", { tags: ["shop"] }), params({ catalog: "team", name: "orders" }));
    // Rows written before actors were named said "web"; a source's sync names itself.
    await recordChanges(db, "team", "web", [{ subjectKind: "tool", subject: "orders", action: "disable" }]);
    await recordChanges(db, "team", "sync", [{ subjectKind: "tool", subject: "orders", action: "redefine" }]);

    expect((await toolHistory("orders")).map((entry) => [entry.action, entry.actorName])).toEqual([
      ["redefine", "sync"],
      ["disable", UNKNOWN_ACTOR],
      ["update", "token tests"],
      ["create", "ada (ada@example.com)"],
    ]);
  });

  it("is named in the history of agents and rules too", async () => {
    const cookie = await signedInAs(db, "ada@example.com", "editor");
    await agentsRoute.POST(
      jsonRequest("POST", { name: "helper", mode: "subagent", description: "", permissions: [], baseTools: [] }, browserHeaders(cookie)),
      team,
    );
    await rulesRoute.PUT(jsonRequest("PUT", { searchServiceConfigured: true }), team);

    expect((await historyOf("agents")).map((entry) => [entry.subject, entry.actorName])).toEqual([["helper", "ada (ada@example.com)"]]);
    expect((await historyOf("rules")).map((entry) => [entry.subject, entry.actorName])).toEqual([["searchServiceConfigured", "token tests"]]);
  });
});

describe("restoring a version from the audit history", () => {
  it("brings a tool's earlier definition back as one edit: a revision, checked, audited as restored from the entry", async () => {
    await toolsRoute.POST(jsonRequest("POST", draft("orders")), team);
    const changed = { description: "Looks up orders.", inputSchema: { type: "object", properties: { number: { type: "integer" } } } };
    await toolRoute.PATCH(jsonRequest("PATCH", changed), params({ catalog: "team", name: "orders" }));
    const [update] = await toolHistory("orders");
    const before = await revision();

    const response = await restore(update.id, { version: "before" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ changed: true, revision: before + 1, subjectKind: "tool", tool: { name: "orders" } });
    expect((await (await getTool("orders")).json()).tool).toMatchObject(draft("orders"));
    const [restored] = await toolHistory("orders");
    expect(restored).toMatchObject({ action: `restored from #${update.id} (before)`, actor: "token:tests", revision: before + 1 });
    expect(restored.after).toMatchObject(draft("orders"));
  });

  it("changes nothing when that version is the current one", async () => {
    await toolsRoute.POST(jsonRequest("POST", draft("orders")), team);
    const [create] = await toolHistory("orders");
    const before = await revision();
    expect(await (await restore(create.id, { version: "after" })).json()).toMatchObject({ changed: false, revision: before });
  });

  it("creates a deleted tool again from its delete entry", async () => {
    await toolsRoute.POST(jsonRequest("POST", draft("orders")), team);
    await toolRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "orders" }));
    expect((await getTool("orders")).status).toBe(404);
    // Its history stays readable, so that its page can offer the restore.
    const [deletion] = await toolHistory("orders");
    expect(deletion.action).toBe("delete");

    expect((await restore(deletion.id, { version: "before" })).status).toBe(200);
    expect((await (await getTool("orders")).json()).tool).toMatchObject({ ...draft("orders"), source: "custom" });
    expect((await toolHistory("orders")).map((entry) => entry.action)).toEqual([`restored from #${deletion.id} (before)`, "delete", "create"]);
    expect((await toolAuditRoute.GET(jsonRequest("GET"), params({ catalog: "team", name: "never_was" }))).status).toBe(404);
  });

  it("renames a tool back, and its history still follows it across the renames", async () => {
    await toolsRoute.POST(jsonRequest("POST", draft("orders")), team);
    await toolRoute.PATCH(jsonRequest("PATCH", { name: "orders_v2" }), params({ catalog: "team", name: "orders" }));
    const [rename] = await toolHistory("orders_v2");
    await toolRoute.PATCH(jsonRequest("PATCH", { tags: ["shop"] }), params({ catalog: "team", name: "orders_v2" }));

    expect((await restore(rename.id, { version: "before", tool: "orders_v2" })).status).toBe(200);
    expect((await (await getTool("orders")).json()).tool).toMatchObject({ ...draft("orders"), tags: [] });
    expect((await getTool("orders_v2")).status).toBe(404);
    expect((await toolHistory("orders")).map((entry) => entry.action)).toEqual([`restored from #${rename.id} (before)`, "update", "rename", "create"]);
  });

  it("refuses, saying why, a version whose name another tool has taken since", async () => {
    await toolsRoute.POST(jsonRequest("POST", draft("orders")), team);
    await toolRoute.PATCH(jsonRequest("PATCH", { name: "orders_v2" }), params({ catalog: "team", name: "orders" }));
    await toolsRoute.POST(jsonRequest("POST", draft("orders")), team);
    const [rename] = await toolHistory("orders_v2");
    const before = await revision();

    const response = await restore(rename.id, { version: "before", tool: "orders_v2" });
    expect(response.status).toBe(409);
    expect((await response.json()).error.message).toBe(`Cannot restore from #${rename.id}: A tool named "orders" already exists in this catalog.`);
    expect(await revision()).toBe(before);
  });

  it("refuses an entry of another tool, and a version the entry never had", async () => {
    await toolsRoute.POST(jsonRequest("POST", draft("orders")), team);
    await toolsRoute.POST(jsonRequest("POST", draft("invoices")), team);
    const [create] = await toolHistory("orders");

    const elsewhere = await restore(create.id, { version: "after", tool: "invoices" });
    expect(elsewhere.status).toBe(400);
    expect((await elsewhere.json()).error.message).toContain(`Entry #${create.id} is not in the history of tool "invoices"`);
    const nothingBefore = await restore(create.id, { version: "before" });
    expect(nothingBefore.status).toBe(400);
    expect((await nothingBefore.json()).error.message).toBe(`Entry #${create.id} (create) recorded no version before it: there is nothing to restore.`);
    expect((await restore(999_999, { version: "before" })).status).toBe(404);
  });

  it("restores a part of the rules, validated as a save is", async () => {
    const rule = { id: "small", name: "Small models", include: ["gpt-5-mini"], exclude: [], enable: [], disable: ["orders"] };
    await toolsRoute.POST(jsonRequest("POST", draft("orders")), team);
    await rulesRoute.PUT(jsonRequest("PUT", { modelRules: [rule] }), team);
    await rulesRoute.PUT(jsonRequest("PUT", { modelRules: [] }), team);
    const [emptied] = await historyOf("rules");
    expect(emptied.subject).toBe("modelRules");

    const response = await restore(emptied.id, { version: "before" });
    expect(response.status).toBe(200);
    expect((await response.json()).rules.modelRules).toEqual([rule]);
    expect((await historyOf("rules"))[0]).toMatchObject({ subjectKind: "model-rule", action: `restored from #${emptied.id} (before)` });
  });

  it("restores an agent's earlier version, and an agent that was deleted", async () => {
    const agent = { name: "helper", mode: "subagent", description: "Helps.", permissions: [], baseTools: [] };
    await agentsRoute.POST(jsonRequest("POST", agent), team);
    await agentRoute.PUT(jsonRequest("PUT", { ...agent, description: "Helps a lot." }), params({ catalog: "team", name: "helper" }));
    const [update] = await historyOf("agents");
    expect((await restore(update.id, { version: "before" })).status).toBe(200);
    expect((await (await agentRoute.GET(jsonRequest("GET"), params({ catalog: "team", name: "helper" }))).json()).agent).toEqual(agent);

    await agentRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "helper" }));
    const [deletion] = await historyOf("agents");
    expect(deletion.action).toBe("delete");
    expect((await restore(deletion.id, { version: "before" })).status).toBe(200);
    expect((await (await agentRoute.GET(jsonRequest("GET"), params({ catalog: "team", name: "helper" }))).json()).agent).toEqual(agent);
  });

  it("is refused to viewers and read-only tokens, changing nothing", async () => {
    await toolsRoute.POST(jsonRequest("POST", draft("orders")), team);
    await toolRoute.PATCH(jsonRequest("PATCH", { description: "Looks up orders." }), params({ catalog: "team", name: "orders" }));
    const [update] = await toolHistory("orders");
    const viewer = await signedInAs(db, "viewer@example.com", "viewer");
    const before = await revision();

    const asViewer = await restore(update.id, { version: "before" }, browserHeaders(viewer));
    expect(asViewer.status).toBe(403);
    expect((await asViewer.json()).error.message).toContain("this needs editor");
    expect((await restore(update.id, { version: "before" }, { authorization: `Bearer ${await createTestToken(db, "read")}` })).status).toBe(403);
    expect(await revision()).toBe(before);
  });
});

describe("the preview of a restore", () => {
  it("says what the restore would change, names included, and writes nothing", async () => {
    await toolsRoute.POST(jsonRequest("POST", draft("sendMail")), team);
    await toolRoute.PATCH(jsonRequest("PATCH", { name: "send_mail", description: "Sends mail, now to many." }), params({ catalog: "team", name: "sendMail" }));
    const [rename] = await toolHistory("send_mail");
    const before = await revision();

    expect(await previewRestore(db, "team", { entry: rename.id, version: "before", tool: "send_mail" })).toEqual({
      changes: ["renames send_mail back to sendMail", "changes its description"],
      notes: [],
    });
    expect(await previewRestore(db, "team", { entry: rename.id, version: "after", tool: "send_mail" })).toEqual({ changes: [], notes: [] });
    expect(await revision()).toBe(before);
    await expect(previewRestore(db, "team", { entry: rename.id, version: "before", tool: "other" })).rejects.toThrow(
      `Cannot restore from #${rename.id}: Entry #${rename.id} is not in the history of tool "other".`,
    );
  });

  it("names the model rules a restore of the rules would change", async () => {
    const rule = { id: "small", name: "Small models", include: ["gpt-5-mini"], exclude: [], enable: [], disable: ["orders"] };
    await toolsRoute.POST(jsonRequest("POST", draft("orders")), team);
    await rulesRoute.PUT(jsonRequest("PUT", { modelRules: [rule] }), team);
    await rulesRoute.PUT(jsonRequest("PUT", { modelRules: [] }), team);
    const [emptied] = await historyOf("rules");
    expect((await previewRestore(db, "team", { entry: emptied.id, version: "before" })).changes).toEqual([
      "adds model rule “Small models” (include: gpt-5-mini; disable: orders)",
    ]);
  });
});
