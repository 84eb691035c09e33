/**
 * Which browser requests come from Toolshed's own pages. A cookie rides along with any request a
 * browser sends, so a write authenticated by cookie must prove it was made by our pages: a JSON
 * content type (which no form and no "simple" cross-site fetch can send) and a same-origin Origin.
 */

/** Set by the proxy on every request it lets through: the path and query the browser asked for. */
export const REQUESTED_PATH_HEADER = "x-toolshed-requested-path";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The origins Toolshed is served at: `TOOLSHED_URL` (comma-separated), default localhost:3000. */
export function configuredOrigins(env: Record<string, string | undefined> = process.env): string[] {
  const raw = env.TOOLSHED_URL?.trim() || "http://localhost:3000";
  return raw.split(",").map((value) => {
    const url = new URL(value.trim());
    return url.origin;
  });
}

/** The first configured origin: where links in logs and e-mails point. */
export function publicOrigin(env: Record<string, string | undefined> = process.env): string {
  return configuredOrigins(env)[0];
}

/** True when a Host header names one of the configured origins' hosts (with its port). */
export function hostAllowed(host: string | null, origins: string[]): boolean {
  if (!host) return false;
  const wanted = host.trim().toLowerCase();
  return origins.some((origin) => new URL(origin).host.toLowerCase() === wanted);
}

/** Why a cookie-authenticated request cannot be trusted to come from our pages, or null when it can. */
export function crossSiteProblem(request: Pick<Request, "method" | "headers">, origins: string[]): string | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const contentType = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (contentType !== "application/json") {
    return "Requests signed in with a browser session must send Content-Type: application/json.";
  }
  const origin = request.headers.get("origin");
  if (origin) {
    return origins.includes(origin) ? null : `Requests from ${origin} are not accepted: it is not this site.`;
  }
  if (request.headers.get("sec-fetch-site") === "same-origin") return null;
  return "Requests signed in with a browser session must come from this site (Origin header missing).";
}
