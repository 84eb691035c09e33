import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const PACKAGE_DIR = path.join(process.cwd(), "packages", "client");

describe("@toolshed/client as a package", () => {
  it("imports only `ai`, `@ai-sdk/mcp` and its own files: no Next, React, Drizzle, server-only or Toolshed server code", () => {
    const sources = readdirSync(path.join(PACKAGE_DIR, "src")).filter((file) => file.endsWith(".ts"));
    expect(sources.length).toBeGreaterThan(0);
    for (const file of sources) {
      const text = readFileSync(path.join(PACKAGE_DIR, "src", file), "utf8");
      const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map(([, specifier]) => specifier);
      for (const specifier of specifiers) expect(specifier, file).toMatch(/^(ai|@ai-sdk\/mcp|\.\/[\w-]+\.js)$/);
    }
  });

  it("declares `ai` and `@ai-sdk/mcp` as its only peer dependencies and exports its entry point with types", () => {
    const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8"));
    expect(manifest.name).toBe("@toolshed/client");
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(["@ai-sdk/mcp", "ai"]);
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.exports["."]).toMatchObject({ types: "./dist/index.d.ts", import: "./dist/index.js" });
  });
});
