import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A component file shows one thing (a form with its schema, a table, a panel): one that passes
 * this size has grown a second thing to split off. Functions have their own limit, Biome's
 * noExcessiveLinesPerFunction in biome.json.
 */
const MAX_LINES = 300;
const COMPONENTS = path.resolve("components");

describe("the components", () => {
  it(`are files of at most ${MAX_LINES} lines`, () => {
    const files = readdirSync(COMPONENTS).filter((name) => /\.(ts|tsx)$/.test(name));
    expect(files.length).toBeGreaterThan(20);
    const oversized = files
      .map((name) => ({ name, lines: readFileSync(path.join(COMPONENTS, name), "utf8").trimEnd().split("\n").length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ name, lines }) => `components/${name}: ${lines} lines`);
    expect(oversized).toEqual([]);
  });
});
