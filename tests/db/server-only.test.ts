import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_TSX_ARGS } from "../support/server-process";

/** db/ (but the schemas, which drizzle-kit loads on its own), app/_services/ and the MCP client. */
const SERVER_MODULES = [
  ...["db", "db/queries", "app/_services"].flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => name.endsWith(".ts"))
      .map((name) => path.join(dir, name)),
  ),
  "lib/sources/mcp/client.ts",
  "lib/sources/mcp/connections.ts",
].filter((file) => !["schema.ts", "schema-pg.ts"].map((name) => path.join("db", name)).includes(file));

const importing = (args: string[]) =>
  spawnSync(process.execPath, [...args, "--input-type=module", "-e", 'await import("./db/client.ts"); console.log("loaded")'], { encoding: "utf8" });

describe('"server-only" keeps the server\'s modules out of client bundles', () => {
  it.each(SERVER_MODULES)("%s imports it", (file) => {
    expect(readFileSync(file, "utf8")).toMatch(/^import "server-only";$/m);
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
