import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_TSX_ARGS } from "../support/server-process";

const tsFiles = (dir: string, recursive = false): string[] =>
  readdirSync(dir, { recursive })
    .map(String)
    .filter((name) => name.endsWith(".ts"))
    .map((name) => path.join(dir, name));

/**
 * db/ (but the schemas, which drizzle-kit loads on its own), app/_services/, and the lib/ modules
 * that hold secrets, start processes or reach files and the network: lib/secrets, lib/sources
 * (but the opening message, which the Sources page shows too, the health states it draws, the MCP server's config schema, which
 * lib/api-schemas.ts re-exports for the forms that check with the server's schemas, and the plugin types), the model
 * providers (API keys), the sign-in providers (client secrets) and the peer-address header (a
 * process secret, Node's HTTP server).
 */
const SERVER_MODULES = [
  ...["db", "db/queries", "app/_services"].flatMap((dir) => tsFiles(dir)),
  ...["lib/secrets", "lib/sources"].flatMap((dir) => tsFiles(dir, true)),
  "lib/ai/models.ts",
  "lib/auth/sign-in-providers.ts",
  "lib/auth/peer-address.ts",
].filter(
  (file) =>
    ![
      "db/schema.ts",
      "db/schema-pg.ts",
      "lib/sources/mcp/opening.ts",
      "lib/sources/mcp/health.ts",
      "lib/sources/mcp/config.ts",
      "lib/sources/plugins/types.ts",
    ].includes(file),
);

const SERVER_ONLY = /^import "server-only";$/m;
const CLIENT_DIRECTIVE = /^["']use client["'];?$/m;
const SERVER_DIRECTIVE = /^["']use server["'];?$/m;

/** The project's module a specifier names ("@/…" or relative), or undefined for a package. */
function projectModule(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith("@/") ? specifier.slice(2) : specifier.startsWith(".") ? path.join(path.dirname(from), specifier) : undefined;
  if (base === undefined) return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find(
    (file) => existsSync(file) && statSync(file).isFile(),
  );
}

/** What a module imports at run time: type-only imports and exports left out, as the compiler does. */
function runtimeImports(file: string, source: string): string[] {
  const specifiers: string[] = [];
  for (const [, typeOnly, names, specifier] of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:(\{[^}]*\}|[^"';]*?)\s+from\s+)?["']([^"']+)["']/gm)) {
    const inlineTypesOnly =
      names?.startsWith("{") &&
      names
        .slice(1, -1)
        .split(",")
        .every((name) => name.trim() === "" || name.trim().startsWith("type "));
    if (!typeOnly && !inlineTypesOnly) specifiers.push(specifier);
  }
  for (const [, specifier] of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) specifiers.push(specifier);
  return specifiers.flatMap((specifier) => projectModule(file, specifier) ?? []);
}

/**
 * Every module of the project that reaches the browser: the client components and what they import,
 * through other modules too, but not into server actions' modules, which the client calls by reference.
 */
function clientModules(): Set<string> {
  const pending = ["app", "components", "lib"].flatMap((dir) =>
    readdirSync(dir, { recursive: true })
      .map((name) => path.join(dir, String(name)))
      .filter((file) => /\.tsx?$/.test(file) && CLIENT_DIRECTIVE.test(readFileSync(file, "utf8"))),
  );
  const reached = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (reached.has(file)) continue;
    const source = readFileSync(file, "utf8");
    if (SERVER_DIRECTIVE.test(source)) continue;
    reached.add(file);
    pending.push(...runtimeImports(file, source));
  }
  return reached;
}

const importing = (args: string[]) =>
  spawnSync(process.execPath, [...args, "--input-type=module", "-e", 'await import("./db/client.ts"); console.log("loaded")'], { encoding: "utf8" });

describe('"server-only" keeps the server\'s modules out of client bundles', () => {
  it.each(SERVER_MODULES)("%s imports it", (file) => {
    expect(readFileSync(file, "utf8")).toMatch(SERVER_ONLY);
  });

  it("is imported by no module a client component imports, directly or through others", () => {
    const reached = clientModules();
    // The walk does reach lib/: the Sources page's waiting message and the tool editor's checks.
    expect(reached).toContain("lib/sources/mcp/opening.ts");
    expect(reached).toContain("lib/tools/validate.ts");
    expect([...reached].filter((file) => SERVER_ONLY.test(readFileSync(file, "utf8")))).toEqual([]);
  });

  it("refuses to load outside React's server condition, and loads inside it", () => {
    const outside = importing(["--import", "tsx"]);
    expect(outside.status).not.toBe(0);
    expect(outside.stderr).toContain("This module cannot be imported from a Client Component module");
    const inside = importing(SERVER_TSX_ARGS);
    expect(inside.stderr).toBe("");
    expect(inside.stdout).toBe("loaded\n");
  });
});
