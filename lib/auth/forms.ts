import { z } from "zod";

/** What the sign-in, setup and invitation forms send. */
export const signInBody = z.strictObject({
  email: z.email("Enter an e-mail address.").max(254),
  password: z.string().min(1, "Enter your password.").max(256),
});

export const setupBody = z.strictObject({
  email: z.email("Enter an e-mail address.").max(254),
  name: z.string().trim().min(1, "Enter your name.").max(100),
  password: z.string().max(256),
});

/** Return paths are resolved against this origin: one that leaves it was never a path of ours. */
const RETURN_PATH_BASE = "http://return-path.invalid";

/** The path, query and hash `candidate` means on this site, as the URL parser normalises them; undefined when it leaves the site. */
function sameSitePath(candidate: string): string | undefined {
  if (!candidate.startsWith("/")) return undefined;
  let url: URL;
  try {
    url = new URL(candidate, RETURN_PATH_BASE);
  } catch {
    return undefined;
  }
  const path = url.pathname + url.search + url.hash;
  // Dot segments can leave `//host` behind (`/..//host`), which a browser reads as another site.
  return url.origin === RETURN_PATH_BASE && !path.startsWith("//") ? path : undefined;
}

/**
 * A path on this site to return to after signing in; anything else means the home page. The URL
 * parser decides, as the browser will: it drops tabs and newlines and reads backslashes as slashes
 * (`/\t/host`, `/\\host` are `//host`). The path must also stay on the site once its escapes are
 * decoded (`/%2f/host`, `/%09/host`), for whatever decodes it on the way. The answer is the parsed
 * URL's own spelling, safe in a Location header.
 */
export function safeReturnPath(path: unknown): string {
  if (typeof path !== "string") return "/";
  const normalised = sameSitePath(path);
  if (normalised === undefined) return "/";
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(new URL(normalised, RETURN_PATH_BASE).pathname);
  } catch {
    return "/";
  }
  return sameSitePath(decodedPath) === undefined ? "/" : normalised;
}
