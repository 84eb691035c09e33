import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as embeddingsRoute from "@/app/api/catalogs/[catalog]/embeddings/route";
import * as preselectRoute from "@/app/api/catalogs/[catalog]/preselect/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as replayRoute from "@/app/api/decisions/[id]/replay/route";
import * as decisionRoute from "@/app/api/decisions/[id]/route";
import type { Db } from "@/db/client";
import { toolEmbeddings } from "@/db/tables";
import { seed } from "@/db/seed";
import { bagOfWordsVector, type EmbeddingRequest, type EmbeddingScript } from "../support/scripted-openai-server";
import { useScriptedServer } from "../support/scripted-server-lifecycle";
import { apiRequest, jsonRequest, params, useFreshDatabase } from "./helpers";

const demo = params({ catalog: "demo" });
const start = useScriptedServer();
const ENV_KEYS = [
  "TOOLSHED_EMBEDDING_MODEL",
  "TOOLSHED_OPENAI_COMPATIBLE_BASE_URL",
  "TOOLSHED_EMBEDDING_TIMEOUT_MS",
  "TOOLSHED_EMBEDDING_BATCH",
  "TOOLSHED_AUX_MODEL",
];
const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
let db: Db;

/** The scripted model knows one word the catalog never uses: "zorblat" means a weather forecast. */
const vectorOf = (text: string) => bagOfWordsVector(text.replace(/zorblat/gi, "weather forecast"));
const knowsZorblat: EmbeddingScript = ({ input }) => input.map(vectorOf);

/** A server whose behaviour the test switches: answer, fail, or hang. */
async function embeddingServer(mode: { now: "answer" | "fail" | "hang" } = { now: "answer" }) {
  const server = await start([], {
    embeddings: (request) =>
      mode.now === "fail"
        ? { status: 500, body: { error: { message: "embedding model overloaded" } } }
        : mode.now === "hang"
          ? { hang: true }
          : knowsZorblat(request),
  });
  return { ...server, mode };
}

/** Configures the hybrid selector for the next request (the registry is built once per process). */
function configure(url: string | undefined, extra: Record<string, string> = {}) {
  for (const key of ENV_KEYS) delete process.env[key];
  if (url) Object.assign(process.env, { TOOLSHED_EMBEDDING_MODEL: "openai-compatible:scripted-embedder", TOOLSHED_OPENAI_COMPATIBLE_BASE_URL: url, ...extra });
  (globalThis as { toolshedSelectors?: unknown }).toolshedSelectors = undefined;
}

async function preselect(content: string, selector?: string) {
  const response = await preselectRoute.POST(
    jsonRequest("POST", { model: "gpt-5", agent: "build", messages: [{ role: "user", content }], k: 5, selector }),
    demo,
  );
  return { status: response.status, body: await response.json() };
}

async function embeddingStatus() {
  return (await (await embeddingsRoute.GET(apiRequest("/api/catalogs/demo/embeddings"), demo)).json()).embeddings;
}

const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);
/** The requests that embedded tools (not a user's request). */
const toolRequests = (requests: EmbeddingRequest[], query: string) => requests.filter((request) => !(request.input.length === 1 && request.input[0] === query));

beforeEach(async () => {
  db = await useFreshDatabase();
  await seed(db, { demo: true });
});

afterEach(async () => {
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
  (globalThis as { toolshedSelectors?: unknown }).toolshedSelectors = undefined;
});

describe("the hybrid selector through the API, against an OpenAI-compatible embeddings server", () => {
  it("is the default once configured, and finds a tool asked for in words the local ranker does not know", async () => {
    const { url, embeddingRequests } = await embeddingServer();
    configure(url);
    const local = await preselect("zorblat", "local");
    expect(names(local.body.selected)).not.toContain("weather_get_forecast");

    const hybrid = await preselect("zorblat");
    expect(hybrid.status).toBe(200);
    expect(hybrid.body.selector).toBe("hybrid");
    expect(hybrid.body.fallback).toBeNull();
    expect(names(hybrid.body.selected).slice(0, 2)).toContain("weather_get_forecast");
    expect(embeddingRequests[0].model).toBe("scripted-embedder");

    const decision = (await (await decisionRoute.GET(jsonRequest("GET"), params({ id: hybrid.body.decisionId }))).json()).decision;
    expect(decision).toMatchObject({ selector: "hybrid", fallback: null, raw: { model: "openai-compatible:scripted-embedder" } });
    // A replay of it runs the selector it was made with.
    const replay = await (await replayRoute.POST(jsonRequest("POST", {}), params({ id: hybrid.body.decisionId }))).json();
    expect(replay.after).toMatchObject({ selector: "hybrid", fallback: null });
  });

  it("stores one vector per tool definition: a second request embeds no tool, an edited tool is embedded again alone", async () => {
    const { url, embeddingRequests } = await embeddingServer();
    configure(url, { TOOLSHED_EMBEDDING_BATCH: "16" });
    await preselect("weather in Lyon");
    const total = (await embeddingStatus()).total;
    expect(total).toBeGreaterThan(16);
    const firstBuild = toolRequests(embeddingRequests, "weather in Lyon");
    expect(firstBuild.map((request) => request.input.length)).toEqual([...Array(Math.floor(total / 16)).fill(16), ...(total % 16 ? [total % 16] : [])]);
    expect(await db.select().from(toolEmbeddings)).toHaveLength(total);
    expect(await embeddingStatus()).toMatchObject({ model: "openai-compatible:scripted-embedder", embedded: total, total, running: false, error: null });

    embeddingRequests.length = 0;
    await preselect("post in the team channel");
    expect(toolRequests(embeddingRequests, "post in the team channel")).toEqual([]);

    const edited = await toolRoute.PATCH(
      jsonRequest("PATCH", { summary: "Get the weather where you are now: temperature, wind and alerts." }),
      params({ catalog: "demo", name: "weather_get_current" }),
    );
    expect(edited.status).toBe(200);
    embeddingRequests.length = 0;
    await preselect("weather in Lyon");
    const rebuilt = toolRequests(embeddingRequests, "weather in Lyon");
    expect(rebuilt).toHaveLength(1);
    expect(rebuilt[0].input).toHaveLength(1);
    expect(rebuilt[0].input[0]).toMatch(/^weather_get_current .*\nGet the weather where you are now/);
    expect(await db.select().from(toolEmbeddings)).toHaveLength(total + 1);
  });

  it("embeds a catalog on request, in batches, with its progress to poll", async () => {
    const { url } = await embeddingServer();
    configure(url, { TOOLSHED_EMBEDDING_BATCH: "8" });
    const started = await embeddingsRoute.POST(jsonRequest("POST"), demo);
    expect(started.status).toBe(202);
    const { embeddings } = await started.json();
    expect(embeddings).toMatchObject({ model: "openai-compatible:scripted-embedder", embedded: 0, running: true });
    await vi.waitFor(async () => expect(await embeddingStatus()).toMatchObject({ embedded: embeddings.total, running: false }));
  });

  it("answers with the local ranker and records the fallback when the server fails", async () => {
    const { url, mode } = await embeddingServer({ now: "fail" });
    configure(url);
    const { status, body } = await preselect("weather forecast in Lyon");
    expect(status).toBe(200);
    expect(body.selector).toBe("local");
    expect(body.fallback).toEqual({ from: "hybrid", cause: "embedding model overloaded" });
    expect(names(body.selected)).toContain("weather_get_forecast");
    const decision = (await (await decisionRoute.GET(jsonRequest("GET"), params({ id: body.decisionId }))).json()).decision;
    expect(decision.fallback).toEqual({ from: "hybrid", cause: "embedding model overloaded" });
    await vi.waitFor(async () => expect((await embeddingStatus()).error).toBe("embedding model overloaded"));

    // The server recovers: the next request embeds the catalog and is answered by the hybrid selector.
    mode.now = "answer";
    expect((await preselect("weather forecast in Lyon")).body.fallback).toBeNull();
  });

  it("answers with the local ranker and records the timeout when the server hangs", async () => {
    const { url, mode, abandoned } = await embeddingServer();
    configure(url, { TOOLSHED_EMBEDDING_TIMEOUT_MS: "300" });
    expect((await preselect("weather in Lyon")).body.fallback).toBeNull();
    mode.now = "hang";
    const { body } = await preselect("weather forecast in Lyon");
    expect(body.fallback).toEqual({ from: "hybrid", cause: "timeout after 300 ms" });
    expect(body.selector).toBe("local");
    const decision = (await (await decisionRoute.GET(jsonRequest("GET"), params({ id: body.decisionId }))).json()).decision;
    expect(decision.fallback).toEqual({ from: "hybrid", cause: "timeout after 300 ms" });
    // The timeout hung up on the request.
    await vi.waitFor(() => expect(abandoned).toHaveLength(1));
  });
});

describe("without an embedding model", () => {
  it("refuses the hybrid selector with what to set, and reports nothing embedded", async () => {
    configure(undefined);
    const { status, body } = await preselect("weather in Lyon", "hybrid");
    expect(status).toBe(400);
    expect(body.error.message).toContain("TOOLSHED_EMBEDDING_MODEL");
    expect(body.error.field).toBe("selector");
    expect((await preselect("weather in Lyon")).body.selector).toBe("local");
    expect(await embeddingStatus()).toMatchObject({ model: null, embedded: 0, running: false });
    expect((await embeddingsRoute.POST(jsonRequest("POST"), demo)).status).toBe(400);
  });
});
