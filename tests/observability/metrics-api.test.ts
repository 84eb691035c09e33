/**
 * GET /api/metrics: Prometheus text that parses, with the series of the requests just made
 * (labelled by route pattern, never by path), the selector's latency, rate-limit refusals and
 * Node's process metrics; readable by instance admins and `instance` and `metrics` tokens only.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { resetRateLimits } from "@/app/_services/rate-limits";
import { withEnv } from "../sources/helpers";
import { routeApiRequest } from "../support/api-routes";
import { parsePrometheus, type Sample } from "../support/prometheus";
import { APP_ORIGIN, apiRequest, createTestToken, useFreshDatabase } from "../api/helpers";

let db: Db;

beforeEach(async () => {
  db = await useFreshDatabase();
  await createCatalog(db, { id: "demo", name: "Demo", teamId: "default" }, "tests");
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function scrape(token: string) {
  const response = await routeApiRequest(apiRequest("/api/metrics", { headers: bearer(token) }));
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await response.text());
}

const find = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));

describe("GET /api/metrics", () => {
  it("counts requests by route pattern and status, with durations, the selector's latency and Node's own figures", async () => {
    const metricsToken = await createTestToken(db, "metrics", "prometheus");
    const before = find((await scrape(metricsToken)).samples, "toolshed_http_requests_total", {
      route: "/api/catalogs/{catalog}/tool-list",
      status: "200",
    });
    for (let i = 0; i < 3; i++) {
      const list = await routeApiRequest(apiRequest("/api/catalogs/demo/tool-list?model=gpt-5&agent=build"));
      expect(list.status).toBe(200);
    }
    const missing = await routeApiRequest(apiRequest("/api/catalogs/demo/tools/no-such-tool"));
    expect(missing.status).toBe(404);
    const preselect = await routeApiRequest(
      apiRequest("/api/catalogs/demo/preselect", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-5", agent: "build", messages: [{ role: "user", content: "read a file" }] }),
      }),
    );
    expect(preselect.status).toBe(200);

    const { samples, types } = await scrape(metricsToken);
    const lists = find(samples, "toolshed_http_requests_total", { method: "GET", route: "/api/catalogs/{catalog}/tool-list", status: "200" });
    expect(lists!.value - (before?.value ?? 0)).toBe(3);
    expect(find(samples, "toolshed_http_requests_total", { method: "GET", route: "/api/catalogs/{catalog}/tools/{name}", status: "404" })?.value).toBe(1);
    expect(types.get("toolshed_http_request_duration_seconds")).toBe("histogram");
    expect(
      find(samples, "toolshed_http_request_duration_seconds_count", { method: "POST", route: "/api/catalogs/{catalog}/preselect", status: "200" })?.value,
    ).toBe(1);
    expect(find(samples, "toolshed_selector_duration_seconds_count", { catalog: "demo", selector: "local", use: "preselect" })?.value).toBe(1);
    // Labels are patterns: no path, id or tool name of a request becomes a series of its own.
    expect(
      samples.filter((sample) => sample.labels.route !== undefined && !sample.labels.route.startsWith("/api/") && sample.labels.route !== "unmatched"),
    ).toEqual([]);
    expect(samples.some((sample) => Object.values(sample.labels).includes("no-such-tool"))).toBe(false);
    expect(find(samples, "process_cpu_user_seconds_total", {})).toBeDefined();
    expect(types.get("nodejs_heap_size_used_bytes")).toBe("gauge");
  });

  it("counts rate-limit refusals by class", async () => {
    const reader = await createTestToken(db, "read", "greedy");
    await withEnv({ TOOLSHED_RATE_LIMIT_READ: "1" }, async () => {
      resetRateLimits();
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await routeApiRequest(apiRequest("/api/catalogs/demo", { headers: bearer(reader) }))).status);
      expect(statuses).toEqual([200, 429, 429]);
    });
    resetRateLimits();
    const { samples } = await scrape(await createTestToken(db, "instance", "ops"));
    expect(find(samples, "toolshed_rate_limit_refusals_total", { class: "read" })?.value).toBeGreaterThanOrEqual(2);
  });

  it("is for instance admins and tokens of scope instance or metrics; a metrics token reads no catalog and is made on the command line only", async () => {
    const metricsToken = await createTestToken(db, "metrics", "prometheus");
    for (const scope of ["read", "write", "admin"] as const) {
      const response = await routeApiRequest(apiRequest("/api/metrics", { headers: bearer(await createTestToken(db, scope, `walk-${scope}`)) }));
      expect(response.status).toBe(403);
      expect((await response.json()).error.message).toMatch(/scope metrics/);
    }
    expect((await routeApiRequest(new Request(`${APP_ORIGIN}/api/metrics`))).status).toBe(401);
    expect((await routeApiRequest(apiRequest("/api/catalogs/demo", { headers: bearer(metricsToken) }))).status).toBe(404);
    const catalogs = await routeApiRequest(apiRequest("/api/catalogs", { headers: bearer(metricsToken) }));
    expect((await catalogs.json()).catalogs).toEqual([]);
    const made = await routeApiRequest(
      apiRequest("/api/teams/default/tokens", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "scraper", scope: "metrics" }),
      }),
    );
    expect(made.status).toBe(400);
    expect((await made.json()).error.message).toMatch(/only on the command line/);
  });
});
