import path from "node:path";

interface Rewrite {
  source: string;
  destination: string;
}

/** next.config.mjs's rewrites (a plain JS module, loaded by path: it has no types). */
async function rewrites(): Promise<Rewrite[]> {
  const config = (await import(path.join(process.cwd(), "next.config.mjs"))) as { default: { rewrites(): Promise<Rewrite[]> } };
  return config.default.rewrites();
}

/**
 * next.config.mjs's rewrites, applied as Next applies them before routing (`:name` matches one
 * path segment): tests that reach Toolshed by URL, as a client does, get the same routes.
 */
export async function rewritePath(pathname: string): Promise<string> {
  for (const { source, destination } of await rewrites()) {
    const names: string[] = [];
    const pattern = source.replace(/[.]/g, "\\.").replace(/:(\w+)/g, (_: string, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    const match = new RegExp(`^${pattern}$`).exec(pathname);
    if (match) return names.reduce((rewritten, name, index) => rewritten.replace(`:${name}`, match[index + 1]), destination);
  }
  return pathname;
}
