import { CATALOG, type Deployment, expectOk, importCatalog, type importDocument, ms, type Percentiles, percentiles } from "./deployment";
import type { HotRoute } from "./hot-routes";

/** What a write costs the next caller of each route: the first request after it, per kind of write. */
export interface AfterEditFigures {
  route: string;
  /** After a one-tool description edit (PATCH …/tools/{name}). */
  oneTool: Percentiles;
  /** After an import that changes 100 tools' descriptions. */
  hundredImported: Percentiles;
}

/** The routes an agent calls every turn whose answers a write changes (tool-list, preselect, tool-search). */
const EDITED_ROUTES = ["POST tool-list", "POST preselect", "POST tool-search"];

/**
 * Per route: `rounds` one-tool edits, each followed by one timed request of that route (the 8
 * model/agent combinations rotating, so each edit meets another combination), then a quarter as
 * many imports of 100 changed tools, each followed by one timed request. Every edit changes the
 * text the selector indexes, so no list, body or index of the revision before can be reused whole.
 */
export async function measureAfterEdits(
  deployment: Deployment,
  document: ReturnType<typeof importDocument>,
  routes: readonly HotRoute[],
  rounds: number,
): Promise<AfterEditFigures[]> {
  const names = document.tools.map((tool) => tool.name);
  let edits = 0;
  const editOne = async () => {
    const name = names[(edits * 7919) % names.length];
    const description = `${document.tools[(edits * 7919) % names.length].description} (edit ${++edits})`;
    await expectOk(deployment, "PATCH", `/api/catalogs/${CATALOG}/tools/${encodeURIComponent(name)}`, { description });
  };
  const importHundred = async () => {
    const start = (edits * 101) % Math.max(1, names.length - 100);
    edits++;
    const tools = document.tools.slice(start, start + 100).map((tool) => ({ ...tool, description: `${tool.description} (import ${edits})` }));
    await importCatalog(deployment, { tools });
  };
  const figures: AfterEditFigures[] = [];
  for (const route of routes.filter((candidate) => EDITED_ROUTES.includes(candidate.route))) {
    const afterOne: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await editOne();
      afterOne.push(await route.run(round));
    }
    const afterImport: number[] = [];
    for (let round = 0; round < Math.max(1, Math.round(rounds / 4)); round++) {
      await importHundred();
      afterImport.push(await route.run(round));
    }
    figures.push({ route: route.route, oneTool: percentiles(afterOne), hundredImported: percentiles(afterImport) });
  }
  return figures;
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
    `${ms(each.oneTool.p50)} / ${ms(each.oneTool.p95)}`,
    `${ms(each.hundredImported.p50)} / ${ms(each.hundredImported.p95)}`,
    target ? `≤ ${target.oneTool}${target.hundredImported ? ` / ≤ ${target.hundredImported}` : ""}` : "—",
  ]);
}

export const AFTER_EDIT_HEADINGS = [
  "tools",
  "first request after a write",
  "after a one-tool edit p50 / p95 ms",
  "after importing 100 changed tools p50 / p95 ms",
  "target p50 (ms)",
];
