import Ajv2020 from "ajv/dist/2020.js";
import { beforeEach, describe, expect, it } from "vitest";
import * as openApiRoute from "@/app/api/openapi.json/route";
import { seed } from "@/db/seed";
import { HTTP_METHODS, openApiDocument, type OpenApiDocument } from "@/lib/openapi";
import { apiRoutes, findRoute, importRoute, routeApiRequest } from "../support/api-routes";
import { apiRequest, asInstanceAdmin, useFreshDatabase } from "./helpers";

type Operations = Record<string, Record<string, { responses: Record<string, ResponseObject | { $ref: string }> }>>;
type ResponseObject = { description: string; content?: Record<string, { schema: unknown }> };

/** The methods a route file answers: what it exports, less what it refuses with 405 (called without a caller, it changes nothing). */
async function implementedMethods(dir: string): Promise<string[]> {
  const module = await importRoute(dir);
  const answered: string[] = [];
  for (const method of HTTP_METHODS.map((name) => name.toUpperCase() as Uppercase<typeof name>)) {
    const handler = module[method];
    if (!handler) continue;
    const response = await handler(apiRequest(`/api/${dir}`, { method, headers: { authorization: "" } }), { params: Promise.resolve({}) });
    if (response.status !== 405) answered.push(method.toLowerCase());
  }
  return answered;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

interface Exchange {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

/** Sends a request to the route its URL names, with the default admin token unless told otherwise. */
async function send(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Exchange> {
  const init: RequestInit = { method, headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await routeApiRequest(apiRequest(url, init));
  return { method, url, status: response.status, headers: response.headers, text: await response.text() };
}

describe("the OpenAPI document", () => {
  let document: OpenApiDocument;

  beforeEach(async () => {
    await seed(await useFreshDatabase(), { demo: true });
    document = openApiDocument();
  });

  it("is OpenAPI 3.1 with bearer tokens and session cookies as security schemes", async () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.components.securitySchemes.bearerToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({ type: "apiKey", in: "cookie" });
    const paths = document.paths as Operations;
    expect(paths["/api/health"].get).toMatchObject({ security: [] });
    expect(paths["/api/catalogs/{catalog}/tools"].get).toMatchObject({ security: [{ bearerToken: [] }, { sessionCookie: [] }] });
  });

  it("has every route file under app/api, with exactly the methods each answers", async () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(35);
    const paths = document.paths as Operations;
    for (const route of routes) {
      expect(Object.keys(paths), route.dir).toContain(route.openApiPath);
      expect(Object.keys(paths[route.openApiPath]).sort(), route.openApiPath).toEqual((await implementedMethods(route.dir)).sort());
    }
    expect(Object.keys(paths).sort()).toEqual(routes.map((route) => route.openApiPath).sort());
  });

  it("is served at GET /api/openapi.json without a caller", async () => {
    const response = await openApiRoute.GET();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it("describes the answers the routes give: recorded responses validate against it", async () => {
    const exchanges: Exchange[] = [];
    const record = async (...args: Parameters<typeof send>) => {
      const exchange = await send(...args);
      exchanges.push(exchange);
      return exchange;
    };
    const json = (exchange: Exchange) => JSON.parse(exchange.text);
    const catalog = "/api/catalogs/demo";

    await record("GET", "/api/health");
    await record("GET", "/api/openapi.json", undefined, { authorization: "" });
    await record("GET", "/api/oauth/authorization-server", undefined, { authorization: "" });
    await record("GET", "/api/oauth/protected-resource/demo", undefined, { authorization: "" });
    await record("GET", "/api/metrics", undefined, await asInstanceAdmin());
    await record("GET", "/api/metrics");
    await record("GET", "/api/catalogs");
    await record("GET", "/api/catalogs", undefined, { authorization: "" });
    await record("POST", "/api/catalogs", { name: "Second", id: "second" });
    await record("PATCH", "/api/catalogs/second", { description: "A second catalog." });
    await record("GET", catalog);
    await record("GET", "/api/catalogs/nowhere");
    await record("GET", `${catalog}/tools`);
    await record("GET", `${catalog}/tools?q=issue&limit=5`);
    await record("POST", `${catalog}/tools`, {
      name: "open_ticket",
      summary: "Open a support ticket.",
      description: "Open a support ticket.",
      inputSchema: { type: "object" },
    });
    await record("POST", `${catalog}/tools`, { name: "Not A Name" });
    await record("GET", `${catalog}/tools/open_ticket`);
    await record("PATCH", `${catalog}/tools/open_ticket`, { tags: ["support"] });
    await record("POST", `${catalog}/tools-bulk`, { action: "disable", names: ["open_ticket"] });
    await record("GET", `${catalog}/tools/open_ticket/findings`);
    const history = json(await record("GET", `${catalog}/tools/open_ticket/audit`));
    await record("POST", `${catalog}/audit/${history.entries[0].id}/restore`, { version: "before" });
    await record("DELETE", `${catalog}/tools/open_ticket`);
    await record("GET", `${catalog}/export`);
    await record("POST", "/api/catalogs/second/apply?dryRun=1", { format: "toolshed.catalog", version: 2, tools: [] });
    await record("POST", `${catalog}/clone`, { name: "Demo copy", id: "demo-copy" });
    await record("POST", "/api/catalogs/second/import", {
      tools: [{ name: "lookup_order", description: "Look up an order by its number.", parameters: { type: "object" } }],
    });
    await record("GET", `${catalog}/import-jobs/no-such-job`);
    await record("GET", `${catalog}/rules`);
    await record("PUT", `${catalog}/rules`, { searchServiceConfigured: false });
    await record("GET", `${catalog}/audit?of=rules`);
    await record("GET", `${catalog}/agents`);
    const agent = { name: "helper", mode: "subagent", description: "Helps.", permissions: [], baseTools: [] };
    await record("POST", `${catalog}/agents`, agent);
    await record("GET", `${catalog}/agents/helper`);
    await record("PUT", `${catalog}/agents/helper`, { ...agent, description: "Helps more." });
    await record("DELETE", `${catalog}/agents/helper`);
    const list = await record("GET", `${catalog}/tool-list?model=gpt-5&agent=build`);
    await record("GET", `${catalog}/tool-list?model=gpt-5&agent=build`, undefined, { "if-none-match": list.headers.get("etag")! });
    await record("POST", `${catalog}/tool-list`, { model: "gpt-5", agent: "build", format: "openai" });
    const turn = { model: "gpt-5", agent: "build" };
    const preselection = json(await record("POST", `${catalog}/preselect`, { ...turn, messages: [{ role: "user", content: "Open a GitHub issue" }] }));
    await record("POST", `${catalog}/tool-search`, { ...turn, conversationId: preselection.conversationId, query: "select:slack_post_message,nope" });
    await record("GET", `${catalog}/decisions`);
    await record("GET", `/api/decisions/${preselection.decisionId}`);
    await record("POST", `/api/decisions/${preselection.decisionId}/replay`);
    await record("GET", `${catalog}/embeddings`);
    await record("POST", `${catalog}/embeddings`);
    const started = json(
      await record("POST", `${catalog}/evaluations`, { cases: [{ query: "open an issue", expected: ["github_create_issue"] }], name: "smoke" }),
    );
    await record("GET", `${catalog}/evaluations/${started.evaluation.id}`);
    await record("GET", `${catalog}/evaluations?name=smoke`);
    await record("GET", `${catalog}/quality`);
    await record("POST", `${catalog}/playground`, { ...turn, message: "Post to Slack" });
    await record("GET", `${catalog}/conversations`);
    await record("GET", `${catalog}/conversations/${preselection.conversationId}`);
    await record("DELETE", `${catalog}/conversations/${preselection.conversationId}`);
    await record("GET", `${catalog}/definition-reviews`);
    await record("POST", `${catalog}/definition-reviews`, { tool: "nope", decision: "approve", digest: "x" });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const accept = { accept: "application/json, text/event-stream" };
    const opened = await record("POST", `${catalog}/mcp?model=gpt-5&agent=build`, initialize, accept);
    const session = { ...accept, "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-06-18" };
    await record("POST", `${catalog}/mcp`, { jsonrpc: "2.0", method: "notifications/initialized" }, session);
    // The session's event stream stays open: its answer is recorded without its body.
    const stream = await routeApiRequest(apiRequest(`${catalog}/mcp`, { headers: session }));
    await stream.body?.cancel();
    exchanges.push({ method: "GET", url: `${catalog}/mcp`, status: stream.status, headers: stream.headers, text: "" });
    await record("DELETE", `${catalog}/mcp`, undefined, session);
    await record("GET", `${catalog}/usage-stats?window=7d`);
    await record("POST", `${catalog}/usage`, { events: [{ query: "open a ticket for the login bug", used: ["github_create_issue", "no_such_tool"] }] });
    await record("GET", `${catalog}/learning`);
    await record("GET", `${catalog}/learning?tool=github_create_issue`);
    await record("PUT", `${catalog}/learning`, { enabled: false });
    await record("DELETE", `${catalog}/learning`);
    await record("GET", `${catalog}/mcp-servers`);
    await record("POST", `${catalog}/mcp-servers`, { name: "bad", transport: "carrier-pigeon" });
    await record("GET", `${catalog}/mcp-servers/none`);
    await record("DELETE", `${catalog}/mcp-servers/none`);
    await record("POST", `${catalog}/mcp-servers/none/sync`);
    await record("GET", `${catalog}/mcp-servers/none/health`);
    await record("POST", `${catalog}/sources/reload`);
    await record("DELETE", "/api/catalogs/second");
    await record("GET", "/api/teams");
    await record("POST", "/api/teams", { name: "Tokens cannot" });
    await record("GET", "/api/teams/default/members");
    await record("PUT", "/api/teams/default/members/nobody", { role: "editor" });
    await record("DELETE", "/api/teams/default/members/nobody");
    const invited = json(await record("POST", "/api/teams/default/invitations", { email: "new@example.com", role: "viewer" }));
    await record("GET", "/api/teams/default/invitations");
    await record("DELETE", `/api/teams/default/invitations/${invited.invitation.id}`);
    const created = json(await record("POST", "/api/teams/default/tokens", { name: "ci", scope: "read" }));
    await record("GET", "/api/teams/default/tokens");
    await record("DELETE", `/api/teams/default/tokens/${created.token.id}`);

    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(document, "openapi.json");
    const paths = document.paths as Operations;
    const answered = new Set<string>();
    for (const exchange of exchanges) {
      const where = `${exchange.method} ${exchange.url} → ${exchange.status}`;
      const { route } = findRoute(new URL(exchange.url, "http://localhost").pathname)!;
      const method = exchange.method.toLowerCase();
      const responses = paths[route.openApiPath]?.[method]?.responses ?? {};
      const declared = responses[String(exchange.status)] ?? (exchange.status >= 400 ? responses.default : undefined);
      expect(declared, `${where} is not in the document`).toBeDefined();
      answered.add(`${method} ${route.openApiPath}`);
      const pointer = "$ref" in declared! ? declared.$ref : `#/paths/${escapePointer(route.openApiPath)}/${method}/responses/${exchange.status}`;
      const response = ("$ref" in declared! ? document.components.responses.Error : declared) as ResponseObject;
      const [mediaType] = Object.keys(response.content ?? {});
      if (mediaType === undefined) {
        expect(exchange.text, `${where} has no body`).toBe("");
        continue;
      }
      expect(exchange.headers.get("content-type"), where).toContain(mediaType);
      if (mediaType !== "application/json") continue;
      const validate = ajv.compile({ $ref: `openapi.json${pointer}/content/application~1json/schema` });
      const valid = validate(JSON.parse(exchange.text));
      expect(valid, `${where}: ${ajv.errorsText(validate.errors)}\n${exchange.text.slice(0, 500)}`).toBe(true);
    }

    // Every operation answered at least once, but better-auth's own endpoints.
    const operations = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    expect(operations.filter((operation) => !answered.has(operation))).toEqual(["get /api/auth/{path}", "post /api/auth/{path}"]);
  });

  it("fails a response that differs from it", async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(document, "openapi.json");
    const validate = ajv.compile({ $ref: "openapi.json#/components/schemas/Preselection" });
    expect(validate({ conversationId: "c", selected: "not a list" })).toBe(false);
  });
});
