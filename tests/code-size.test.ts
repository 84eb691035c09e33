import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Code a newcomer can read: a component file shows one thing (a form with its schema, a table, a
 * panel), and a function does one thing. Lines are counted as they read, blank lines aside, JSX
 * included (Biome's noExcessiveLinesPerFunction counts a component's markup as a few lines).
 * A function that must be longer says why in its leading comment: "Over 80 lines because …".
 */
const MAX_COMPONENT_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;
const REASON = /Over 80 lines because/;
const PRODUCT_CODE = ["app", "components", "lib", "db", "scripts", "bench", "mcp-servers", "plugins", "packages/client/src"];
const NOT_CODE = new Set(["node_modules", "migrations", "migrations-pg", "dist"]);

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return NOT_CODE.has(entry.name) ? [] : sourcesUnder(file);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [file] : [];
  });
}

const nonBlankLines = (text: string) => text.split("\n").filter((line) => line.trim() !== "").length;

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  if (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent)) return node.parent.name.getText();
  return "(anonymous)";
}

/** Every function of a file longer than the limit and without a reason, as "file:line name (n lines)". */
function longFunctions(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) {
      const lines = nonBlankLines(text.slice(node.getStart(), node.end));
      const statement = ts.isVariableDeclaration(node.parent) ? node.parent.parent.parent : node;
      const comments = text.slice(statement.getFullStart(), statement.getStart());
      if (lines > MAX_FUNCTION_LINES && !REASON.test(comments)) {
        found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${functionName(node)} (${lines} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the size of the code", () => {
  it(`keeps each component file within ${MAX_COMPONENT_FILE_LINES} lines`, () => {
    const files = sourcesUnder("components");
    expect(files.length).toBeGreaterThan(20);
    const oversized = files
      .map((file) => ({ file, lines: readFileSync(file, "utf8").trimEnd().split("\n").length }))
      .filter(({ lines }) => lines > MAX_COMPONENT_FILE_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(oversized).toEqual([]);
  });

  it(`keeps each function of the product's code within ${MAX_FUNCTION_LINES} lines, or says why`, () => {
    const files = PRODUCT_CODE.flatMap((dir) => sourcesUnder(dir));
    expect(files.length).toBeGreaterThan(300);
    expect(files.flatMap((file) => longFunctions(file))).toEqual([]);
  });
});
