import { CATALOG, type Deployment, expectOk, importCatalog, type importDocument, ms, type Percentiles, percentiles } from "./deployment";
import type { HotRoute } from "./hot-routes";

/** What a write costs the next caller of each route: the first request after it, per kind of write. */
export interface AfterEditFigures {
  route: string;
  /** After a one-tool description edit (PATCH …/tools/{name}). */
  oneTool: Percentiles;
  /** After an import that changes 100 tools' descriptions. */
  hundredImported: Percentiles;
  /** The writes themselves: a write answers once the catalog has caught up (app/_services/catalog-writes.ts). */
  writes: { oneTool: Percentiles; hundredImported: Percentiles };
}

/** The routes an agent calls every turn whose answers a write changes (tool-list, preselect, tool-search). */
const EDITED_ROUTES = ["POST tool-list", "POST preselect", "POST tool-search"];

/**
 * Per route: `rounds` one-tool edits, each followed by one timed request of that route (the 8
 * model/agent combinations rotating, so each edit meets another combination), then half as
 * many imports of 100 changed tools, each followed by one timed request. Every edit changes the
 * text the selector indexes, so no list, body or index of the revision before can be reused whole.
 */
export async function measureAfterEdits(
  deployment: Deployment,
  catalog: EditableCatalog,
  routes: readonly HotRoute[],
  rounds: number,
): Promise<AfterEditFigures[]> {
  let edits = 0;
  const editOne = async (): Promise<number> => {
    const { name, description } = catalog.tool((edits * 7919) % catalog.size);
    const started = performance.now();
    await expectOk(deployment, "PATCH", `/api/catalogs/${CATALOG}/tools/${encodeURIComponent(name)}`, { description: `${description} (edit ${++edits})` });
    return performance.now() - started;
  };
  const importHundred = async () => {
    const start = (edits * 101) % Math.max(1, catalog.size - 100);
    edits++;
    const tools = Array.from({ length: Math.min(100, catalog.size - start) }, (_, offset) => {
      const tool = catalog.tool(start + offset);
      return { ...tool, description: `${tool.description} (import ${edits})` };
    });
    const started = performance.now();
    await importCatalog(deployment, { tools });
    return performance.now() - started;
  };
  const figures: AfterEditFigures[] = [];
  for (const route of routes.filter((candidate) => EDITED_ROUTES.includes(candidate.route))) {
    const [afterOne, oneToolWrites]: number[][] = [[], []];
    for (let round = 0; round < rounds; round++) {
      oneToolWrites.push(await editOne());
      afterOne.push(await route.run(round));
    }
    const [afterImport, importWrites]: number[][] = [[], []];
    for (let round = 0; round < Math.max(1, Math.round(rounds / 2)); round++) {
      importWrites.push(await importHundred());
      afterImport.push(await route.run(round));
    }
    figures.push({
      route: route.route,
      oneTool: percentiles(afterOne),
      hundredImported: percentiles(afterImport),
      writes: { oneTool: percentiles(oneToolWrites), hundredImported: percentiles(importWrites) },
    });
  }
  return figures;
}

type ImportedTool = ReturnType<typeof importDocument>["tools"][number];

/**
 * The imported catalog as the writes need it: each tool as JSON in one buffer, outside the heap.
 * Kept as the document's objects, or even as 50,000 strings, it made the client's collector cost
 * 25–40 ms on every 36 MB answer at 50,000 tools, which the clock counted as the server's.
 */
export class EditableCatalog {
  private readonly json: Buffer;
  private readonly offsets: Uint32Array;

  constructor(document: ReturnType<typeof importDocument>) {
    const encoded = document.tools.map((tool) => Buffer.from(JSON.stringify(tool)));
    this.offsets = new Uint32Array(encoded.length + 1);
    encoded.forEach((bytes, index) => {
      this.offsets[index + 1] = this.offsets[index] + bytes.length;
    });
    this.json = Buffer.concat(encoded);
  }

  get size(): number {
    return this.offsets.length - 1;
  }

  tool(index: number): ImportedTool {
    return JSON.parse(this.json.toString("utf8", this.offsets[index], this.offsets[index + 1])) as ImportedTool;
  }
}

/** Issue 29's targets for the first request after an edit, p50 ms. */
const AFTER_EDIT_TARGETS: Record<number, { oneTool: number; hundredImported?: number }> = {
  10000: { oneTool: 25, hundredImported: 50 },
  50000: { oneTool: 60 },
};

export function afterEditRows(size: number, figures: readonly AfterEditFigures[]): string[][] {
  const target = AFTER_EDIT_TARGETS[size];
  return figures.map((each) => [
    size.toLocaleString("en"),
    each.route,
    `${ms(each.oneTool.p50)} / ${ms(each.oneTool.p95)} (${ms(each.writes.oneTool.p50)})`,
    `${ms(each.hundredImported.p50)} / ${ms(each.hundredImported.p95)} (${ms(each.writes.hundredImported.p50)})`,
    target ? `≤ ${target.oneTool}${target.hundredImported ? ` / ≤ ${target.hundredImported}` : ""}` : "—",
  ]);
}

export const AFTER_EDIT_HEADINGS = [
  "tools",
  "first request after a write",
  "after a one-tool edit p50 / p95 ms (the edit's own p50)",
  "after importing 100 changed tools p50 / p95 ms (the import's own p50)",
  "target p50 (ms)",
];
