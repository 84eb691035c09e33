/**
 * `npx tsx bench/catalogs/build.ts` writes the service-catalog labelled sets into bench/data/
 * (format: bench/data/README.md) from the hand-written specs and requests beside this file.
 *
 * - services_a_dev.json / services_a_heldout.json: catalog A ∪ B (every service), requests about A.
 * - services_b_heldout.json: catalog B alone, requests about B.
 * - services_c_heldout.json: catalog A ∪ B ∪ C, requests about C (written after the ranker was tuned).
 * - services_d_heldout.json: catalog D alone (services in none of the others), requests about D
 *   (written and committed before the third round of ranker work, measured once at its end).
 * - services_e_dev.json: catalog A ∪ B ∪ E, requests about E: a second development set, tuned on.
 * - services_f_dev.json / services_g_heldout.json: every catalog (A to E), requests that each need
 *   several tools (3–6 in F, 2–6 in G); F is tuned on, G was written and committed before the
 *   fourth round of ranker work and is measured once, at its end.
 * - services_h_heldout.json: every catalog (A to E), long step-by-step instructions (3–4 tools,
 *   one per step), written for issue 26 before its splitter work was measured on it; held out.
 */
import { writeFileSync } from "node:fs";
import { expandService, type ExpandedTool, type ServiceSpec } from "./spec";
import { REQUESTS_A_DEV } from "./requests-a-dev";
import { REQUESTS_A_HELDOUT } from "./requests-a-heldout";
import { REQUESTS_B_HELDOUT } from "./requests-b-heldout";
import { REQUESTS_C_HELDOUT } from "./requests-c-heldout";
import { REQUESTS_D_HELDOUT } from "./requests-d-heldout";
import { REQUESTS_E_DEV } from "./requests-e-dev";
import { REQUESTS_F_DEV } from "./requests-f-dev";
import { REQUESTS_G_HELDOUT } from "./requests-g-heldout";
import { REQUESTS_H_HELDOUT } from "./requests-h-heldout";
import { SERVICES_A1 } from "./services-a1";
import { SERVICES_A2 } from "./services-a2";
import { SERVICES_A3 } from "./services-a3";
import { SERVICES_A4 } from "./services-a4";
import { SERVICES_B } from "./services-b";
import { SERVICES_C } from "./services-c";
import { SERVICES_D1 } from "./services-d1";
import { SERVICES_D2 } from "./services-d2";
import { SERVICES_D3 } from "./services-d3";
import { SERVICES_E } from "./services-e";

const SERVICES_A = [...SERVICES_A1, ...SERVICES_A2, ...SERVICES_A3, ...SERVICES_A4];
const SERVICES_D = [...SERVICES_D1, ...SERVICES_D2, ...SERVICES_D3];
const LICENSE = "Same licence as the Toolshed project: written for it (tools and requests), nothing copied from public data sets.";

function catalogOf(services: readonly ServiceSpec[]): Map<string, ExpandedTool> {
  const tools = new Map<string, ExpandedTool>();
  const names = new Set<string>();
  for (const service of services) {
    for (const [key, tool] of expandService(service)) {
      if (names.has(tool.name)) throw new Error(`Duplicate tool name ${tool.name}`);
      names.add(tool.name);
      tools.set(key, tool);
    }
  }
  return tools;
}

function casesOf(requests: readonly string[][], catalog: Map<string, ExpandedTool>, idPrefix: string) {
  return requests.map(([query, ...expected], index) => {
    if (expected.length === 0) throw new Error(`No expected tool for "${query}"`);
    return {
      id: `${idPrefix}-${String(index + 1).padStart(3, "0")}`,
      query,
      expected: expected.map((key) => {
        const tool = catalog.get(key);
        if (!tool) throw new Error(`Unknown tool ${key} in "${query}"`);
        return tool.name;
      }),
    };
  });
}

function write(file: string, notes: string, catalog: Map<string, ExpandedTool>, cases: ReturnType<typeof casesOf>): void {
  const set = { source: "Toolshed bench/catalogs (hand-written service specs and requests)", license: LICENSE, notes, tools: [...catalog.values()], cases };
  writeFileSync(new URL(`../data/${file}`, import.meta.url), `${JSON.stringify(set, null, 1)}\n`);
  const multi = cases.filter((labelled) => labelled.expected.length > 1).length;
  console.log(`${file}: ${catalog.size} tools, ${cases.length} cases, ${multi} with 2+ tools`);
}

const everything = catalogOf([...SERVICES_A, ...SERVICES_B]);
const catalogB = catalogOf(SERVICES_B);
const catalogABC = catalogOf([...SERVICES_A, ...SERVICES_B, ...SERVICES_C]);
const catalogD = catalogOf(SERVICES_D);
const catalogABE = catalogOf([...SERVICES_A, ...SERVICES_B, ...SERVICES_E]);
const aNotes = `Catalog: ${SERVICES_A.length + SERVICES_B.length} services (A and B) as MCP servers expose them. Requests about catalog A's services`;
write("services_a_dev.json", `${aNotes}; development split: tuned on.`, everything, casesOf(REQUESTS_A_DEV, everything, "a-dev"));
write("services_a_heldout.json", `${aNotes}; held-out split: never tuned on.`, everything, casesOf(REQUESTS_A_HELDOUT, everything, "a-held"));
write(
  "services_b_heldout.json",
  `Catalog: catalog B's ${SERVICES_B.length} services only, none of which appear in catalog A's requests. Held out: never tuned on.`,
  catalogB,
  casesOf(REQUESTS_B_HELDOUT, catalogB, "b-held"),
);
write(
  "services_c_heldout.json",
  `Catalog: ${SERVICES_A.length + SERVICES_B.length + SERVICES_C.length} services (A, B and C). Requests about catalog C's ${SERVICES_C.length} services, written after the local ranker was tuned. Held out: never tuned on.`,
  catalogABC,
  casesOf(REQUESTS_C_HELDOUT, catalogABC, "c-held"),
);
write(
  "services_d_heldout.json",
  `Catalog: catalog D's ${SERVICES_D.length} services only, none of which is in catalogs A, B, C or E. Requests about them, written and committed before the third round of ranker work. Held out: measured once, never tuned on.`,
  catalogD,
  casesOf(REQUESTS_D_HELDOUT, catalogD, "d-held"),
);
write(
  "services_e_dev.json",
  `Catalog: ${SERVICES_A.length + SERVICES_B.length + SERVICES_E.length} services (A, B and E). Requests about catalog E's ${SERVICES_E.length} services (some also needing A's); development split: tuned on.`,
  catalogABE,
  casesOf(REQUESTS_E_DEV, catalogABE, "e-dev"),
);
const catalogAll = catalogOf([...SERVICES_A, ...SERVICES_B, ...SERVICES_C, ...SERVICES_D, ...SERVICES_E]);
const allNotes = `Catalog: all ${SERVICES_A.length + SERVICES_B.length + SERVICES_C.length + SERVICES_D.length + SERVICES_E.length} services (A to E). Requests that each need several tools, across services`;
write("services_f_dev.json", `${allNotes} (3–6 tools each); development split: tuned on.`, catalogAll, casesOf(REQUESTS_F_DEV, catalogAll, "f-dev"));
write(
  "services_g_heldout.json",
  `${allNotes} (2–6 tools each), written and committed before the fourth round of ranker work. Held out: measured once, never tuned on.`,
  catalogAll,
  casesOf(REQUESTS_G_HELDOUT, catalogAll, "g-held"),
);
write(
  "services_h_heldout.json",
  `${allNotes} (3–4 tools each, one per step of a long instruction: "first …, then …, and finally …", numbered lists, "once that's done", semicolons), written for issue 26 before the splitter work was measured on it. Held out: measured once, never tuned on.`,
  catalogAll,
  casesOf(REQUESTS_H_HELDOUT, catalogAll, "h-held"),
);
