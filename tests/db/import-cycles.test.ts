import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * db/ imports no module of its own that imports it back, type-only and dynamic imports included:
 * a cycle there (the schema once took its JSON column types from query modules) loads modules
 * half-initialised and ties every query module to every other.
 */

const DB = path.resolve("db");

function modulesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return modulesUnder(file);
    return /\.(ts|mjs)$/.test(entry.name) ? [file] : [];
  });
}

/** The db/ modules a file imports, by relative path or by "@/db/…". */
function dbImportsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles.flatMap(({ fileName }) => {
    const base = fileName.startsWith("@/") ? path.resolve(fileName.slice(2)) : fileName.startsWith(".") ? path.resolve(path.dirname(file), fileName) : null;
    const target =
      base &&
      [base, `${base}.ts`, path.join(base, "index.ts")].find(
        (candidate) => candidate.startsWith(DB) && existsSync(candidate) && candidate.match(/\.(ts|mjs)$/),
      );
    return target ? [target] : [];
  });
}

/** Each import cycle, as the files along it (the first one again at the end); a walk that meets a file on its own path has found one. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at >= 0) {
      cycles.push([...trail.slice(at), file].map((name) => path.relative(process.cwd(), name)));
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return cycles;
}

describe("db/ import graph", () => {
  const graph = new Map(modulesUnder(DB).map((file) => [file, dbImportsOf(file)]));

  it("reads the imports it checks (the walk is not vacuous)", () => {
    expect(graph.get(path.join(DB, "queries", "tools.ts"))).toContain(path.join(DB, "queries", "tool-import.ts"));
    expect(graph.get(path.join(DB, "import-runner.ts"))).toContain(path.join(DB, "import-job.ts"));
  });

  it("finds a cycle when there is one", () => {
    expect(
      cyclesOf(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
          ["c", ["a"]],
        ]),
      ),
    ).toHaveLength(1);
  });

  it("has no cycle", () => {
    expect(cyclesOf(graph)).toEqual([]);
  });
});
