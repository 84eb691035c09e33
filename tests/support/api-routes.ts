import { readdirSync } from "node:fs";
import path from "node:path";

/**
 * The route files under app/api, and a router that sends a Request to the one Next would: tests
 * call the route handlers by URL, as an HTTP client does, without a Next server.
 */

export const API_DIR = path.join(process.cwd(), "app", "api");

/** The folder of the route answering paths no other route file claims. */
const UNKNOWN_PATH_DIR = "[[...path]]";

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

export interface ApiRoute {
  /** The folder under app/api, e.g. `catalogs/[catalog]/tools`. */
  dir: string;
  /** The path as the OpenAPI document writes it, e.g. `/api/catalogs/{catalog}/tools`. */
  openApiPath: string;
}

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response> | Response;
type RouteModule = Partial<Record<(typeof HTTP_METHODS)[number], Handler>>;

function routeDirs(dir = API_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === UNKNOWN_PATH_DIR ? [] : routeDirs(full);
    return entry.name === "route.ts" ? [path.relative(API_DIR, dir)] : [];
  });
}

/** Every route file but the unknown-path fallback. */
export function apiRoutes(): ApiRoute[] {
  return routeDirs().map((dir) => ({
    dir,
    openApiPath: `/api/${dir
      .split(path.sep)
      .map((segment) => segment.replace(/^\[(?:\.\.\.)?(\w+)\]$/, (_, name: string) => `{${name === "all" ? "path" : name}}`))
      .join("/")}`,
  }));
}

export function importRoute(dir: string): Promise<RouteModule> {
  return import(path.join(API_DIR, dir, "route.ts")) as Promise<RouteModule>;
}

/** The segment values a URL path gives a route folder's parameters, or undefined when it is not that route's. */
function matchRoute(dir: string, segments: string[]): Record<string, string | string[]> | undefined {
  const pattern = dir.split(path.sep);
  const params: Record<string, string | string[]> = {};
  for (const [index, part] of pattern.entries()) {
    const catchAll = /^\[\.\.\.(\w+)\]$/.exec(part);
    if (catchAll) {
      if (segments.length <= index) return undefined;
      params[catchAll[1]] = segments.slice(index);
      return params;
    }
    const value = segments[index];
    if (value === undefined) return undefined;
    const dynamic = /^\[(\w+)\]$/.exec(part);
    if (dynamic) params[dynamic[1]] = decodeURIComponent(value);
    else if (part !== value) return undefined;
  }
  return segments.length === pattern.length ? params : undefined;
}

/** The route folder Next would pick for a path: static segments win over dynamic ones. */
export function findRoute(pathname: string): { route: ApiRoute; params: Record<string, string | string[]> } | undefined {
  const segments = pathname
    .replace(/^\/api\/?/, "")
    .split("/")
    .filter(Boolean);
  const dynamicCount = (route: ApiRoute) => route.dir.split(path.sep).filter((part) => part.startsWith("[")).length;
  for (const route of apiRoutes().sort((a, b) => dynamicCount(a) - dynamicCount(b))) {
    const params = matchRoute(route.dir, segments);
    if (params) return { route, params };
  }
  return undefined;
}

/** Answers a request as the app would: the route file its path names, else the unknown-path 404. */
export async function routeApiRequest(request: Request): Promise<Response> {
  const found = findRoute(new URL(request.url).pathname);
  const module = await importRoute(found?.route.dir ?? UNKNOWN_PATH_DIR);
  const handler = module[request.method as keyof RouteModule];
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve(found?.params ?? {}) });
}
