import { beforeEach, describe, expect, it } from "vitest";
import * as catalogsRoute from "@/app/api/catalogs/route";
import * as conversationRoute from "@/app/api/catalogs/[catalog]/conversations/[id]/route";
import * as playgroundRoute from "@/app/api/catalogs/[catalog]/playground/route";
import * as preselectRoute from "@/app/api/catalogs/[catalog]/preselect/route";
import * as toolSearchRoute from "@/app/api/catalogs/[catalog]/tool-search/route";
import * as replayRoute from "@/app/api/decisions/[id]/replay/route";
import type { Db } from "@/db/client";
import { createConversation, getConversation } from "@/db/queries/conversations";
import { createTestToken, jsonRequest, params, useFreshDatabase } from "../api/helpers";
import { browserHeaders, signedInAs } from "../api/sessions";

/**
 * Issue 21, item 5: a conversation is deleted by the one who started it or by an editor (or
 * higher); a viewer or a read token deleting another's gets 403, and the decisions that refer to
 * it go on replaying until an allowed delete.
 */

const team = params({ catalog: "team" });
const turn = { model: "gpt-5", agent: "build" };
let db: Db;

/** How a person (their session cookie) or a token sends a request. */
type Caller = { cookie: string } | { token: string };
const headersOf = (caller: Caller) => ("cookie" in caller ? browserHeaders(caller.cookie) : { authorization: `Bearer ${caller.token}` });

beforeEach(async () => {
  db = await useFreshDatabase();
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
});

/** A conversation the caller starts with a preselection; its id and the decision that refers to it. */
async function preselectAs(caller: Caller): Promise<{ conversationId: string; decisionId: string }> {
  const response = await preselectRoute.POST(
    jsonRequest("POST", { ...turn, messages: [{ role: "user", content: "find the word todo in the code" }] }, headersOf(caller)),
    team,
  );
  expect(response.status).toBe(200);
  return response.json();
}

const deleteAs = (caller: Caller, id: string) => conversationRoute.DELETE(jsonRequest("DELETE", undefined, headersOf(caller)), params({ catalog: "team", id }));
const replayStatus = async (decisionId: string) => (await replayRoute.POST(jsonRequest("POST"), params({ id: decisionId }))).status;

describe("DELETE /api/catalogs/{catalog}/conversations/{id}", () => {
  it("refuses a viewer and a read token another's conversation (403, saying who may), and its decisions still replay", async () => {
    const owner = { cookie: await signedInAs(db, "owner@example.com", "viewer") };
    const otherViewer = { cookie: await signedInAs(db, "other@example.com", "viewer") };
    const readToken = { token: await createTestToken(db, "read") };
    const { conversationId, decisionId } = await preselectAs(owner);
    expect((await getConversation(db, conversationId)).owner).toMatch(/^user:/);

    for (const caller of [otherViewer, readToken]) {
      const refused = await deleteAs(caller, conversationId);
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.message).toBe("Only the person or token that started this conversation, or an editor (or higher), may delete it.");
    }
    expect(await replayStatus(decisionId)).toBe(200);

    expect((await deleteAs(owner, conversationId)).status).toBe(204);
    expect(await replayStatus(decisionId)).toBe(409);
  });

  it("lets an editor delete anyone's, and the owner their own whether started in the playground, by ToolSearch or by a token", async () => {
    const viewer = { cookie: await signedInAs(db, "viewer@example.com", "viewer") };
    const editor = { cookie: await signedInAs(db, "editor@example.com", "editor") };
    const readToken = { token: await createTestToken(db, "read") };

    const playground = await playgroundRoute.POST(jsonRequest("POST", { ...turn, message: "grep for todo" }, headersOf(viewer)), team);
    expect(playground.status).toBe(200);
    const started = /"conversationId":"([^"]+)"/.exec(await playground.text())?.[1];
    expect(started).toBeDefined();
    expect((await deleteAs(readToken, started!)).status).toBe(403);
    expect((await deleteAs(viewer, started!)).status).toBe(204);

    const search = await toolSearchRoute.POST(jsonRequest("POST", { ...turn, query: "select:grep" }, headersOf(readToken)), team);
    const { conversationId: searched } = await search.json();
    expect((await getConversation(db, searched)).owner).toMatch(/^token:/);
    expect((await deleteAs(viewer, searched)).status).toBe(403);
    expect((await deleteAs(readToken, searched)).status).toBe(204);

    const { conversationId, decisionId } = await preselectAs(viewer);
    expect((await deleteAs(editor, conversationId)).status).toBe(204);
    expect(await replayStatus(decisionId)).toBe(409);
  });

  it("leaves a conversation older than recorded owners to editors", async () => {
    const viewer = { cookie: await signedInAs(db, "viewer@example.com", "viewer") };
    const editor = { cookie: await signedInAs(db, "editor@example.com", "editor") };
    const old = await createConversation(db, { catalogId: "team", ...turn });
    expect(old.owner).toBeNull();
    expect((await deleteAs(viewer, old.id)).status).toBe(403);
    expect((await deleteAs(editor, old.id)).status).toBe(204);
  });
});
