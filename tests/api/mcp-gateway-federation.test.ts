import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CallToolResultSchema,
  type CallToolResult,
  PromptListChangedNotificationSchema,
  type Resource,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { approvePrompt, federationPreview, serverOfferView } from "@/app/_services/mcp-federation";
import { disconnectMcpServer } from "@/app/_services/sources";
import { readUsageStats } from "@/app/_services/usage";
import type { Db } from "@/db/client";
import { pageDecisions } from "@/db/queries/decisions";
import * as agentRoute from "@/app/api/catalogs/[catalog]/agents/[name]/route";
import * as agentsRoute from "@/app/api/catalogs/[catalog]/agents/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { gatewayUri } from "@/lib/gateway/federation";
import { useEnv } from "../sources/helpers";
import { useGatewayClients } from "../support/gateway-clients";
import { asInstanceAdmin, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";

// Two stdio servers of the fixture (tests/sources/fixtures/resources-server.mjs): "notes" with 120 more resources, "docs".
const FIXTURE = path.resolve("tests/sources/fixtures/resources-server.mjs");
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${FIXTURE}` });

const connectAs = useGatewayClients("gateway-federation-test");
const team = params({ catalog: "team" });
let readToken: string;
let db: Db;

async function addServer(name: string, args: string[]) {
  const config = { name, transport: "stdio", command: process.execPath, args: [FIXTURE, ...args] };
  expect((await serversRoute.POST(jsonRequest("POST", config, await asInstanceAdmin()), team)).status).toBe(201);
}

beforeEach(async () => {
  db = await useFreshDatabase();
  readToken = await createTestToken(db, "read");
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  await addServer("notes", ["label=alpha", "bulk=120"]);
  await addServer("docs", ["label=beta"]);
  const careful = {
    name: "careful",
    mode: "primary",
    description: "May not summarise, nor read the notes' configuration.",
    permissions: [
      { pattern: "*", action: "allow" },
      { pattern: "notes__summarise", action: "deny" },
      { pattern: "notes__config", action: "deny" },
    ],
    baseTools: [],
  };
  expect((await agentsRoute.POST(jsonRequest("POST", careful), team)).status).toBe(201);
});

afterEach(async () => {
  await disconnectMcpServer("team", "notes");
  await disconnectMcpServer("team", "docs");
});

const connect = (agent = "build") => connectAs(readToken, `model=gpt-5&agent=${agent}`);

async function allResources(client: Client): Promise<{ resources: Resource[]; pages: number }> {
  const resources: Resource[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    resources.push(...page.resources);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { resources, pages };
}

const textOf = (contents: object[]) => contents.map((content) => ("text" in content ? content.text : "")).join("\n");
const call = async (client: Client, name: string) => (await client.callTool({ name, arguments: {} }, CallToolResultSchema)) as CallToolResult;

function nextNotification(client: Client, schema: typeof PromptListChangedNotificationSchema | typeof ResourceListChangedNotificationSchema) {
  return new Promise<void>((resolve) => client.setNotificationHandler(schema, () => resolve()));
}

describe("the MCP gateway federates its servers' resources", () => {
  it("lists every server's resources namespaced, in pages, and reads each from its own server", async () => {
    const client = await connect();
    expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true } });
    const { resources, pages } = await allResources(client);
    expect(pages).toBe(2);
    expect(resources).toHaveLength(126);
    const readme = resources.find((resource) => resource.name === "docs__readme")!;
    expect(readme).toMatchObject({
      uri: "toolshed://docs/notes%3A%2F%2Freadme",
      mimeType: "text/plain",
      _meta: { "toolshed/upstream": { server: "docs", uri: "notes://readme" } },
    });
    expect((await client.readResource({ uri: readme.uri })).contents).toEqual([{ uri: readme.uri, mimeType: "text/plain", text: "readme of beta" }]);
    expect(textOf((await client.readResource({ uri: gatewayUri("notes", "notes://readme") })).contents)).toBe("readme of alpha");
    expect(textOf((await client.readResource({ uri: gatewayUri("notes", "notes://config?format=json") })).contents)).toBe('{"label":"alpha"}');
  });

  it("lists templates whose expansion the gateway reads from their server", async () => {
    const client = await connect();
    const { resourceTemplates } = await client.listResourceTemplates();
    const template = resourceTemplates.find((candidate) => candidate.name === "notes__note")!;
    expect(template.uriTemplate).toBe("toolshed://notes/notes%3A%2F%2Fnotes%2F{id}");
    const uri = template.uriTemplate.replace("{id}", "42");
    expect(textOf((await client.readResource({ uri })).contents)).toBe("note 42 of alpha");
  });

  it("refuses an unknown, a forbidden and a foreign URI alike", async () => {
    const client = await connect("careful");
    const names = (await allResources(client)).resources.map((resource) => resource.name);
    expect(names).not.toContain("notes__config");
    expect(names).toContain("docs__config");
    const refusal = (uri: string) =>
      client.readResource({ uri }).then(
        () => "read",
        (error: Error) => error.message,
      );
    expect(await refusal(gatewayUri("notes", "notes://config?format=json"))).toBe(
      `MCP error -32602: Resource not found: ${gatewayUri("notes", "notes://config?format=json")}`,
    );
    expect(await refusal(gatewayUri("nowhere", "notes://readme"))).toBe(`MCP error -32602: Resource not found: ${gatewayUri("nowhere", "notes://readme")}`);
    expect(await refusal("notes://readme")).toBe("MCP error -32602: Resource not found: notes://readme");
  });

  it("leaves out a server whose tools are all disabled", async () => {
    for (const tool of ["docs__link", "docs__add_prompt", "docs__bump"]) {
      expect((await toolRoute.PATCH(jsonRequest("PATCH", { enabled: false }), params({ catalog: "team", name: tool }))).status).toBe(200);
    }
    const client = await connect();
    const { resources } = await allResources(client);
    expect(resources.filter((resource) => resource.name.startsWith("docs__"))).toEqual([]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["notes__summarise", "notes__review"]);
    await expect(client.readResource({ uri: gatewayUri("docs", "notes://readme") })).rejects.toThrow("Resource not found");
  });

  it("makes a tool's resource link readable through the gateway", async () => {
    const client = await connect();
    const result = await call(client, "notes__link");
    expect(result.content).toEqual([{ type: "resource_link", uri: gatewayUri("notes", "notes://readme"), name: "readme", mimeType: "text/plain" }]);
    const link = result.content[0] as { uri: string };
    expect(textOf((await client.readResource({ uri: link.uri })).contents)).toBe("readme of alpha");
  });

  it("forwards an update of a subscribed resource to the subscribed session only, with its gateway URI", async () => {
    const subscriber = await connect();
    const bystander = await connect();
    const counter = gatewayUri("notes", "notes://counter");
    const updates: string[] = [];
    const heard: string[] = [];
    subscriber.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params: { uri } }) => void updates.push(uri));
    bystander.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params: { uri } }) => void heard.push(uri));
    await subscriber.subscribeResource({ uri: counter });
    await call(bystander, "notes__bump");
    await expect.poll(() => updates).toEqual([counter]);
    expect(textOf((await subscriber.readResource({ uri: counter })).contents)).toBe("counter 1");
    await subscriber.unsubscribeResource({ uri: counter });
    expect(textOf((await call(bystander, "notes__bump")).content)).toBe("counter 2, 0 subscription(s)");
    expect(heard).toEqual([]);
  });

  it("lets one session be subscribed to at most 100 resources at once", async () => {
    const client = await connect();
    for (let index = 0; index < 100; index++) await client.subscribeResource({ uri: gatewayUri("notes", `notes://notes/${index}`) });
    // Subscribing again to one it has is no new subscription.
    await client.subscribeResource({ uri: gatewayUri("notes", "notes://notes/0") });
    await expect(client.subscribeResource({ uri: gatewayUri("notes", "notes://notes/100") })).rejects.toThrow("at most 100 resources");
    await client.unsubscribeResource({ uri: gatewayUri("notes", "notes://notes/0") });
    await client.subscribeResource({ uri: gatewayUri("notes", "notes://notes/100") });
  });
});

describe("the MCP gateway federates its servers' prompts", () => {
  it("lists them as <server>__<prompt> and gets them with their arguments, resources in them namespaced", async () => {
    const client = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["docs__summarise", "docs__review", "notes__summarise", "notes__review"]);
    expect(prompts[2]).toMatchObject({ description: "Summarises a topic.", arguments: [{ name: "topic", description: "What to summarise", required: true }] });
    const summary = await client.getPrompt({ name: "docs__summarise", arguments: { topic: "release notes" } });
    expect(summary.messages).toEqual([{ role: "user", content: { type: "text", text: "Summarise release notes (beta)." } }]);
    const review = await client.getPrompt({ name: "notes__review", arguments: {} });
    expect(review.messages[1].content).toMatchObject({ type: "resource", resource: { uri: gatewayUri("notes", "notes://readme") } });
  });

  it("hides a prompt the agent's permissions deny, and refuses it as an unknown one", async () => {
    const client = await connect("careful");
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["docs__summarise", "docs__review", "notes__review"]);
    await expect(client.getPrompt({ name: "notes__summarise", arguments: { topic: "x" } })).rejects.toThrow(
      "MCP error -32602: Prompt not found: notes__summarise",
    );
    await expect(client.getPrompt({ name: "notes__nothing", arguments: {} })).rejects.toThrow("MCP error -32602: Prompt not found: notes__nothing");
  });

  it("tells the session when a server's prompts change, and holds a new prompt back until an editor approves it", async () => {
    const client = await connect();
    // The server's first listing of its prompts approves them; one it adds later waits.
    expect((await client.listPrompts()).prompts).toHaveLength(4);
    const changed = nextNotification(client, PromptListChangedNotificationSchema);
    await call(client, "notes__add_prompt");
    await changed;
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).not.toContain("notes__later");
    await expect(client.getPrompt({ name: "notes__later" })).rejects.toThrow("Prompt not found");
    const later = (await serverOfferView("team", "notes"))!.prompts.find((prompt) => prompt.name === "later")!;
    expect(later.approved).toBe(false);
    const approved = nextNotification(client, PromptListChangedNotificationSchema);
    await approvePrompt("team", "notes", "later", later.digest, "editor@example.com");
    await approved;
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain("notes__later");
  });
});

describe("the MCP gateway records reads and gets as decisions", () => {
  const decisionsOf = async (kind: "resource-read" | "prompt-get") =>
    (await pageDecisions(db, "team", { kind })).decisions.map(({ asked, path, agent, result, rejected }) => ({ asked, path, agent, result, rejected }));

  it("records each read of a resource, refused ones with why, which the caller is not told", async () => {
    const client = await connect("careful");
    const readme = gatewayUri("notes", "notes://readme");
    const config = gatewayUri("notes", "notes://config?format=json");
    await client.readResource({ uri: readme });
    await expect(client.readResource({ uri: config })).rejects.toThrow(`MCP error -32602: Resource not found: ${config}`);
    await expect(client.readResource({ uri: "notes://readme" })).rejects.toThrow("Resource not found");
    expect(await decisionsOf("resource-read")).toEqual([
      {
        asked: "notes://readme",
        path: "call",
        agent: "careful",
        result: { outcome: "refused", reason: "not a gateway resource URI (toolshed://<server>/…)" },
        rejected: [{ name: "notes://readme", reason: "not a gateway resource URI (toolshed://<server>/…)" }],
      },
      {
        asked: config,
        path: "call",
        agent: "careful",
        result: { outcome: "refused", reason: 'denied by the permissions of agent "careful" (notes__config)' },
        rejected: [{ name: config, reason: 'denied by the permissions of agent "careful" (notes__config)' }],
      },
      { asked: readme, path: "call", agent: "careful", result: { outcome: "ok", reason: null }, rejected: [] },
    ]);
    expect((await pageDecisions(db, "team", { outcome: "refused" })).decisions).toHaveLength(2);
  });

  it("records each get of a prompt, telling denied, held-back and unknown ones apart, and counts none as tool usage", async () => {
    const client = await connect("careful");
    await client.getPrompt({ name: "docs__summarise", arguments: { topic: "x" } });
    await expect(client.getPrompt({ name: "notes__summarise", arguments: { topic: "x" } })).rejects.toThrow("Prompt not found");
    await call(client, "notes__add_prompt");
    await expect.poll(async () => (await serverOfferView("team", "notes"))?.prompts.some((prompt) => prompt.name === "later")).toBe(true);
    await expect(client.getPrompt({ name: "notes__later" })).rejects.toThrow("Prompt not found");
    await expect(client.getPrompt({ name: "notes__nothing" })).rejects.toThrow("Prompt not found");
    const reasons = (await decisionsOf("prompt-get")).map(({ asked, result }) => [asked, result]);
    expect(reasons).toEqual([
      ["notes__nothing", { outcome: "refused", reason: "no server of the catalog that this session may use offers this prompt now" }],
      ["notes__later", { outcome: "refused", reason: "held back: an editor has not approved its current definition (Sources page)" }],
      ["notes__summarise", { outcome: "refused", reason: 'denied by the permissions of agent "careful"' }],
      ["docs__summarise", { outcome: "ok", reason: null }],
    ]);
    const usage = await readUsageStats(db, "team", "1h");
    expect(usage.tools.map((figures) => figures.name)).toEqual(["notes__add_prompt"]);
  });
});

describe("the simulator's preview of what an agent is offered", () => {
  it("marks what the agent's permissions deny, and says which server is not connected", async () => {
    await disconnectMcpServer("team", "docs");
    const preview = await federationPreview("team", { model: "gpt-5", agent: "careful" });
    expect(preview.find(({ server }) => server === "docs")).toEqual({ server: "docs", status: "not connected" });
    const notes = preview.find(({ server }) => server === "notes")!;
    if (notes.status !== "live") throw new Error(`notes is ${notes.status}`);
    expect(notes.offer.resources.find((resource) => resource.name === "notes__config")).toMatchObject({ denied: true });
    expect(notes.offer.resources.find((resource) => resource.name === "notes__readme")).toMatchObject({ denied: false, uri: "notes://readme" });
    expect(notes.offer.prompts).toEqual([
      { name: "notes__summarise", denied: true, heldBack: false },
      { name: "notes__review", denied: false, heldBack: false },
    ]);
    await expect(federationPreview("team", { model: "gpt-5", agent: "nobody" })).rejects.toThrow('There is no agent named "nobody".');
  });
});

describe("the MCP gateway tells its sessions when a catalog change alters their resources or prompts", () => {
  it("sends both list_changed when the agent's permissions come to allow what they denied", async () => {
    const client = await connect("careful");
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).not.toContain("notes__summarise");
    const promptsChanged = nextNotification(client, PromptListChangedNotificationSchema);
    const resourcesChanged = nextNotification(client, ResourceListChangedNotificationSchema);
    const permissive = {
      name: "careful",
      mode: "primary",
      description: "May do anything now.",
      permissions: [{ pattern: "*", action: "allow" }],
      baseTools: [],
    };
    expect((await agentRoute.PUT(jsonRequest("PUT", permissive), params({ catalog: "team", name: "careful" }))).status).toBe(200);
    await Promise.all([promptsChanged, resourcesChanged]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain("notes__summarise");
    expect((await allResources(client)).resources.map((resource) => resource.name)).toContain("notes__config");
  });
});
