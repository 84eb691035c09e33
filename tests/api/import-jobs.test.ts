import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as importJobRoute from "@/app/api/catalogs/[catalog]/import-jobs/[id]/route";
import * as importRoute from "@/app/api/catalogs/[catalog]/import/route";
import * as healthRoute from "@/app/api/health/route";
import { getImportJob, startImport, SYNC_IMPORT_MAX_TOOLS } from "@/app/_services/imports";
import { closeDb, migrateDatabase, openPostgres, type Db } from "@/db/client";
import { usesPostgres } from "@/db/dialect";
import { stopImportWorker } from "@/db/import-runner";
import { listAudit } from "@/db/queries/audit";
import { createCatalog, getCatalog } from "@/db/queries/catalogs";
import { listTools } from "@/db/queries/tools";
import { BUILTIN_TOOLS } from "@/lib/tools/builtin";
import { urlOfFreshDatabase } from "../support/fresh-database";
import { apiRequest, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";

const team = params({ catalog: "team" });
let db: Db;
let auth: Record<string, string>;

function labelledSet(count: number, prefix = "tool") {
  return {
    tools: Array.from({ length: count }, (_, index) => ({
      name: `${prefix}_${index}`,
      description: `Fetch record ${index} from the service with optional filters and return its metadata.`,
      parameters: {
        type: "object",
        properties: {
          id: { type: "string", description: "The record id." },
          limit: { type: "integer", minimum: 1, maximum: 100 },
          sort: { type: "string", enum: ["asc", "desc"] },
        },
        required: ["id"],
      },
    })),
  };
}

/**
 * The route handlers on a database file, as in production: imports run in the worker thread. On
 * PostgreSQL the test's database is one the worker reaches already.
 */
async function useDatabaseFile(): Promise<void> {
  db = await useFreshDatabase();
  auth = {};
  if (!usesPostgres()) {
    db = migrateDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-import-api-")), "toolshed.db"));
    (globalThis as { toolshedDb?: Db }).toolshedDb = db;
    // The default token lives in the in-memory database: the file needs one of its own.
    auth = { authorization: `Bearer ${await createTestToken(db, "admin", "tests")}` };
  }
  await createCatalog(db, { name: "Team", id: "team" }, "test");
}

async function postImport(document: unknown, headers = auth) {
  const response = await importRoute.POST(jsonRequest("POST", document, headers), team);
  return { status: response.status, location: response.headers.get("location"), body: await response.json() };
}

async function getJob(url: string, headers = auth) {
  const id = url.split("/").at(-1)!;
  const response = await importJobRoute.GET(apiRequest(url, { headers }), params({ catalog: "team", id }));
  return { status: response.status, body: await response.json() };
}

/** The distinct progress of validation seen part way through (neither at its start nor at its end). */
const partWay = (progress: readonly string[]) => new Set(progress.filter((each) => /^validating [1-9]/.test(each) && each !== "validating 20000"));

/** Polls a job until it is no longer running; every state seen on the way. */
async function follow(url: string) {
  const seen = [];
  for (;;) {
    const { status, body } = await getJob(url);
    expect(status).toBe(200);
    seen.push(body.job);
    if (body.job.status !== "running") return seen;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

afterAll(() => stopImportWorker());

describe("POST /api/catalogs/{catalog}/import on a database file (the import worker)", () => {
  beforeEach(useDatabaseFile);

  it(`answers an import of up to ${SYNC_IMPORT_MAX_TOOLS} tools with its result, as before`, async () => {
    const revision = (await getCatalog(db, "team")).revision;
    const { status, body } = await postImport(labelledSet(SYNC_IMPORT_MAX_TOOLS));
    expect(status).toBe(200);
    expect(body.created).toHaveLength(SYNC_IMPORT_MAX_TOOLS);
    expect(body).toMatchObject({ updated: [], unchanged: [], revision: revision + 1 });
    const again = await postImport(labelledSet(2));
    expect(again.body).toMatchObject({ created: [], updated: [], unchanged: ["tool_0", "tool_1"], revision: revision + 1 });
  });

  it("answers a larger one with a job whose progress and result can be followed; audit and revision as for any import", async () => {
    const revision = (await getCatalog(db, "team")).revision;
    const { status, location, body } = await postImport(labelledSet(6_000));
    expect(status).toBe(202);
    expect(body.job).toEqual({ id: expect.any(String), url: `/api/catalogs/team/import-jobs/${body.job.id}` });
    expect(location).toBe(body.job.url);
    const seen = await follow(body.job.url);
    const last = seen.at(-1);
    expect(last).toMatchObject({
      id: body.job.id,
      status: "done",
      progress: { done: 6_000, total: 6_000 },
      result: { updated: [], unchanged: [], revision: revision + 1 },
    });
    expect(last.result.created).toHaveLength(6_000);
    expect(last).not.toHaveProperty("error");
    expect(await listTools(db, "team")).toHaveLength(BUILTIN_TOOLS.length + 6_000);
    const audit = (await listAudit(db, "team", { limit: 10_000 })).filter((entry) => entry.action === "import");
    expect(audit).toHaveLength(6_000);
    expect(audit.every((entry) => entry.revision === revision + 1 && entry.actor === "token:tests")).toBe(true);
  });

  it("keeps this thread free while a 20,000-tool import runs", async () => {
    const { status, body } = await postImport(labelledSet(20_000));
    expect(status).toBe(202);
    // Health checks and job polls take turns until the job ends: each health check is answered
    // while the import goes on, at the progress the poll after it reports.
    const progressBetweenHealthChecks: string[] = [];
    for (;;) {
      expect((await healthRoute.GET()).status).toBe(200);
      const { job } = (await getJob(body.job.url)).body;
      if (job.status !== "running") {
        expect(job).toMatchObject({ status: "done", progress: { done: 20_000, total: 20_000 } });
        break;
      }
      progressBetweenHealthChecks.push(`${job.progress.phase} ${job.progress.done}`);
      // Quick polls until the answers part way through are seen, then slower: on a busy machine the
      // import takes longer, and polls every few milliseconds all along would pass the read limit
      // (600 a minute) and be answered 429.
      await new Promise((resolve) => setTimeout(resolve, partWay(progressBetweenHealthChecks).size > 2 ? 50 : 5));
    }
    // Before, such an import held this thread for its whole length: no answer came part way through.
    expect(partWay(progressBetweenHealthChecks).size).toBeGreaterThan(2);
  });

  it("writes nothing when any tool is bad: the job fails with every problem, in the API's error shape", async () => {
    const document = labelledSet(3_000);
    document.tools[17] = { name: "bad name", description: "x", parameters: { type: "object" } } as never;
    document.tools[2_999] = { ...document.tools[2_999], parameters: { type: "nope" } } as never;
    const { status, body } = await postImport(document);
    expect(status).toBe(202);
    const last = (await follow(body.job.url)).at(-1);
    expect(last.status).toBe("failed");
    expect(last.error).toMatchObject({ code: "bad_request", field: "tools.17.name" });
    expect(last.error.problems.map((problem: { field: string }) => problem.field)).toEqual(["tools.17.name", "tools.2999.inputSchema.type"]);
    expect(last).not.toHaveProperty("result");
    expect(await listTools(db, "team")).toHaveLength(BUILTIN_TOOLS.length);
  });

  it("answers small failures directly, as before: problems (400), malformed JSON (400), too large (413)", async () => {
    const bad = await postImport({ tools: [{ name: "x y", description: "x", parameters: null }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.problems.map((problem: { field: string }) => problem.field)).toEqual(["tools.0.name"]);
    const malformed = await importRoute.POST(jsonRequest("POST", "{ nope", auth), team);
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.message).toMatch(/not valid JSON/);
    const huge = await importRoute.POST(jsonRequest("POST", "{}", { ...auth, "content-length": String(65 * 1024 * 1024) }), team);
    expect(huge.status).toBe(413);
    // A body cut short on its way (Next.js's proxy passes on at most proxyClientMaxBodySize) is not read as a broken document.
    const cut = await importRoute.POST(jsonRequest("POST", "{}", { ...auth, "content-length": "1000" }), team);
    expect(cut.status).toBe(413);
    expect((await cut.json()).error.message).toMatch(/received 2 of the 1000 bytes/);
    const many = await postImport({ tools: Array(50_001).fill({}) });
    expect(many.status).toBe(413);
    expect(many.body.error.field).toBe("tools");
  });

  it("shows a job to whoever may read the catalog; other catalogs' jobs and unknown ones are 404; starting one needs write", async () => {
    const { body } = await postImport(labelledSet(1_500));
    await follow(body.job.url);
    const viewer = { authorization: `Bearer ${await createTestToken(db, "read", "viewer")}` };
    expect((await getJob(body.job.url, viewer)).body.job.status).toBe("done");
    await createCatalog(db, { name: "Other", id: "other" }, "test");
    const elsewhere = await importJobRoute.GET(apiRequest("/api", { headers: auth }), params({ catalog: "other", id: body.job.id }));
    expect(elsewhere.status).toBe(404);
    expect((await getJob("/api/catalogs/team/import-jobs/nope")).status).toBe(404);
    expect((await postImport(labelledSet(1), viewer)).status).toBe(403);
    expect((await getJob(body.job.url, { authorization: "" })).status).toBe(401);
  });
});

describe("imports on an in-memory database (tests): the same contract, run on this thread", () => {
  beforeEach(async () => {
    db = await useFreshDatabase();
    await createCatalog(db, { name: "Team", id: "team" }, "test");
    auth = {};
  });

  it("gives the result or a job alike", async () => {
    expect((await postImport(labelledSet(10))).status).toBe(200);
    const { status, body } = await postImport(labelledSet(1_200, "more"));
    expect(status).toBe(202);
    expect((await follow(body.job.url)).at(-1)).toMatchObject({ status: "done", progress: { done: 1_200, total: 1_200 } });
  });

  it("startImport and getImportJob serve the page's server actions", async () => {
    const small = await startImport(db, "team", { document: labelledSet(3) }, "someone");
    expect(small).toEqual({ result: { created: ["tool_0", "tool_1", "tool_2"], updated: [], unchanged: [], skipped: [], revision: expect.any(Number) } });
    const large = await startImport(db, "team", { text: JSON.stringify(labelledSet(1_001, "big")) }, "someone");
    expect(large).toEqual({ job: { id: expect.any(String), url: expect.stringMatching(/^\/api\/catalogs\/team\/import-jobs\//) } });
    const id = "job" in large ? large.job.id : "";
    await expect.poll(async () => (await getImportJob(db, "team", id)).status).toBe("done");
    expect((await getImportJob(db, "team", id)).result?.created).toHaveLength(1_001);
    await expect(getImportJob(db, "other", id)).rejects.toThrow(/not found/);
    await expect(startImport(db, "team", { document: { tools: [{ name: "x y" }] } }, "someone")).rejects.toMatchObject({ code: "bad_request" });
  });

  it.skipIf(!usesPostgres())(
    "are known to every instance on PostgreSQL: a poll that reaches another one follows the job to its result or its error",
    async () => {
      // Another instance: a handle of its own on the same database (its own pool and memory).
      const other = openPostgres(urlOfFreshDatabase(db));
      try {
        const large = await startImport(db, "team", { document: labelledSet(1_500, "shared") }, "someone");
        const id = "job" in large ? large.job.id : "";
        expect(await getImportJob(other, "team", id)).toMatchObject({ id, status: expect.stringMatching(/^(running|done)$/) });
        await expect.poll(async () => (await getImportJob(other, "team", id)).status).toBe("done");
        expect(await getImportJob(other, "team", id)).toMatchObject({ progress: { done: 1_500, total: 1_500 }, result: { created: expect.any(Array) } });
        await expect(getImportJob(other, "other", id)).rejects.toThrow(/not found/);

        const broken = labelledSet(1_200, "broken");
        broken.tools[1_100].name = "not a name";
        const failing = await startImport(db, "team", { document: broken }, "someone");
        const failed = "job" in failing ? failing.job.id : "";
        await expect.poll(async () => (await getImportJob(other, "team", failed)).status).toBe("failed");
        expect((await getImportJob(other, "team", failed)).error).toMatchObject({ code: "bad_request", problems: [{ field: "tools.1100.name" }] });
      } finally {
        await closeDb(other);
      }
    },
  );
});
