import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import * as unknownPathRoute from "@/app/api/[[...path]]/route";
import { API_DIR, apiRoutes } from "../support/api-routes";
import { apiRequest, params, useFreshDatabase } from "./helpers";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = (request: Request, context: unknown) => Promise<Response> | Response;

/** Every route file under app/api but better-auth's (its own answers) and the unknown-path one. */
function routeFiles(): string[] {
  return apiRoutes()
    .filter((route) => route.dir.split(path.sep)[0] !== "auth")
    .map((route) => path.join(API_DIR, route.dir, "route.ts"));
}

async function json(response: Response) {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return response.json();
}

beforeEach(async () => {
  await useFreshDatabase();
});

describe("unknown API paths", () => {
  it.each([
    ["GET", "/api/nothing-here"],
    ["POST", "/api/catalogs/demo/unknown"],
    ["DELETE", "/api/catalogs/demo/tools/x/y/z"],
    ["PUT", "/api"],
    ["OPTIONS", "/api/teams/default/nothing"],
  ])("%s %s answers 404 in the JSON error shape", async (method, url) => {
    // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the test calls the route module's handler for each HTTP method it lists
    const handler = unknownPathRoute[method as keyof typeof unknownPathRoute];
    const response = await handler(apiRequest(url, { method }));
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ error: { code: "not_found", message: `There is no API at ${url}; the README lists the routes.` } });
  });
});

describe("methods a route does not implement", () => {
  const files = routeFiles();

  it("covers every route file", () => {
    expect(files.length).toBeGreaterThan(30);
  });

  it.each(files.map((file) => [path.relative(API_DIR, path.dirname(file))]))(
    "/api/%s answers each of them 405 in the JSON error shape, with Allow",
    async (route) => {
      const module = (await import(path.join(API_DIR, route, "route.ts"))) as Partial<Record<string, Handler>>;
      const answered: string[] = [];
      const refusals: { method: string; response: Response }[] = [];
      for (const method of METHODS) {
        const handler = module[method];
        expect(handler, `${method} is exported`).toBeTypeOf("function");
        // Without a caller: an implemented method answers 401 (or, for /api/health, 200) and changes nothing.
        const response = await handler!(apiRequest(`/api/${route}`, { method, headers: { authorization: "" } }), params({}));
        if (response.status === 405) refusals.push({ method, response });
        else answered.push(method);
      }
      expect(answered.length).toBeGreaterThan(0);
      const allow = [...answered, ...(answered.includes("GET") ? ["HEAD"] : []), "OPTIONS"].sort().join(", ");
      for (const { method, response } of refusals) {
        expect(response.headers.get("allow")).toBe(allow);
        expect(await json(response)).toEqual({ error: { code: "method_not_allowed", message: `${method} is not allowed here; this path answers ${allow}.` } });
      }
    },
  );
});
