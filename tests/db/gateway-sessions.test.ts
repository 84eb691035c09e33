import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { createConversation } from "@/db/queries/conversations";
import {
  addGatewayAnswer,
  createGatewaySession,
  deleteGatewaySessionsIdleSince,
  existingGatewaySessions,
  findGatewaySession,
  takeGatewayAnswers,
} from "@/db/queries/gateway-sessions";
import { freshDatabase } from "../support/fresh-database";

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute));
const hello = { protocolVersion: "2025-06-18", capabilities: { elicitation: {} }, clientInfo: { name: "test", version: "1" } };

let db: Db;
let conversationId: string;
beforeEach(async () => {
  db = await freshDatabase();
  await createCatalog(db, { name: "Team", id: "team" }, "tests");
  conversationId = (await createConversation(db, { catalogId: "team", model: "gpt-5", agent: "build" })).id;
});

const open = (id: string, owner: string, minute: number, perOwner = 3) =>
  createGatewaySession(
    db,
    { id, catalogId: "team", owner, turn: { model: "gpt-5", agent: "build" }, conversationId, client: hello, lastUsedAt: at(minute) },
    perOwner,
  );

describe("the gateway's sessions in the database", () => {
  it("keep what restores a session, and close an owner's least recently used beyond the limit, not another owner's", async () => {
    expect(await open("s1", "token:a", 1)).toEqual([]);
    await open("s2", "token:a", 2);
    await open("other", "token:b", 0);
    await open("s3", "token:a", 3);
    expect(await open("s4", "token:a", 4)).toEqual(["s1"]);
    expect(await findGatewaySession(db, "s2")).toMatchObject({ owner: "token:a", turn: { model: "gpt-5", agent: "build" }, client: hello, conversationId });
    expect([...(await existingGatewaySessions(db, ["s1", "s2", "s4", "other", "nope"]))].sort()).toEqual(["other", "s2", "s4"]);
  });

  it("end when idle too long", async () => {
    await open("old", "token:a", 1);
    await open("recent", "token:a", 30);
    expect([...(await existingGatewaySessions(db, ["old", "recent"], at(10)))]).toEqual(["recent"]);
    expect(await deleteGatewaySessionsIdleSince(db, at(10))).toEqual(["old"]);
    expect(await findGatewaySession(db, "old")).toBeUndefined();
  });

  it("keep a client's answers for the instance waiting for them, handed out once, in order", async () => {
    await open("s1", "token:a", 1);
    await open("s2", "token:a", 1);
    await addGatewayAnswer(db, "s1", { jsonrpc: "2.0", id: 1, result: { action: "accept" } });
    await addGatewayAnswer(db, "s2", { jsonrpc: "2.0", id: 1, result: { action: "decline" } });
    await addGatewayAnswer(db, "s1", { jsonrpc: "2.0", id: 2, result: { action: "cancel" } });
    expect(await takeGatewayAnswers(db, ["s1"])).toEqual([
      { sessionId: "s1", message: { jsonrpc: "2.0", id: 1, result: { action: "accept" } } },
      { sessionId: "s1", message: { jsonrpc: "2.0", id: 2, result: { action: "cancel" } } },
    ]);
    expect(await takeGatewayAnswers(db, ["s1"])).toEqual([]);
    expect(await takeGatewayAnswers(db, ["s2"])).toHaveLength(1);
  });

  it("keep no more than a few answers nobody has taken", async () => {
    await open("s1", "token:a", 1);
    for (const id of [1, 2]) expect(await addGatewayAnswer(db, "s1", { jsonrpc: "2.0", id, result: {} }, 2)).toBe(true);
    expect(await addGatewayAnswer(db, "s1", { jsonrpc: "2.0", id: 3, result: {} }, 2)).toBe(false);
    expect(await takeGatewayAnswers(db, ["s1"])).toHaveLength(2);
  });
});
