import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { reloadLocalSources } from "@/app/_services/local-sources";
import { cachedCatalogStates, catalogState, CATALOG_STATES_CACHED } from "@/app/_services/catalog-states";
import { readToolList } from "@/app/_services/tool-list";
import type { Db } from "@/db/client";
import { catalogVersion, loadCatalogState } from "@/db/queries/catalog-state";
import { createCatalog, deleteCatalog } from "@/db/queries/catalogs";
import { bulkChangeTools } from "@/db/queries/tool-bulk";
import { undoBulkChange } from "@/db/queries/tool-bulk-undo";
import { createCustomTool, deleteTool, importTools, updateTool } from "@/db/queries/tools";
import { createLocalSelector } from "@/lib/selection/local-selector";
import { preselect } from "@/lib/selection/preselect";
import { candidatesOf, loadLabelledSet } from "../../bench/labelledSet";
import { seededRandom } from "../../bench/synthetic";
import { computeToolList, cachedToolLists, freezeCatalogState } from "@/lib/pipeline/tool-list";
import { ToolshedError } from "@/lib/errors";
import { freshDatabase } from "../support/fresh-database";

const ACTOR = "test";
const empty = mkdtempSync(path.join(os.tmpdir(), "toolshed-state-cache-"));
const folders = (agents = empty) => ({ TOOLSHED_PLUGINS_DIR: empty, TOOLSHED_SKILLS_DIR: empty, TOOLSHED_AGENTS_DIR: agents });

const weather = {
  name: "weather_lookup",
  summary: "Look up the weather.",
  description: "Returns the weather.",
  inputSchema: { type: "object", properties: { city: { type: "string" } } },
};

let db: Db;
beforeEach(async () => {
  await reloadLocalSources(folders());
  db = await freshDatabase();
  await createCatalog(db, { name: "Cached", id: "cached" }, ACTOR);
});
afterAll(async () => {
  await reloadLocalSources(folders());
});

describe("catalogState cache", () => {
  it("hands out one frozen state per catalog version, with the tool lists computed from it", async () => {
    const state = await catalogState(db, "cached");
    expect(await catalogState(db, "cached")).toBe(state);
    expect(Object.isFrozen(state) && Object.isFrozen(state.tools) && Object.isFrozen(state.tools[0])).toBe(true);
    const list = computeToolList(state, { model: "gpt-5", agent: "build" });
    expect(computeToolList(await catalogState(db, "cached"), { model: "gpt-5", agent: "build" })).toBe(list);
    expect(cachedToolLists(state)).toBe(1);
  });

  it("is replaced by every write that bumps the revision", async () => {
    const state = await catalogState(db, "cached");
    await createCustomTool(db, "cached", weather, ACTOR);
    const afterCreate = await catalogState(db, "cached");
    expect(afterCreate).not.toBe(state);
    expect(afterCreate.revision).toBe(state.revision + 1);
    expect(afterCreate.tools.map((tool) => tool.name)).toContain("weather_lookup");
    await updateTool(db, "cached", "weather_lookup", { summary: "Weather, now." }, ACTOR);
    const afterUpdate = await catalogState(db, "cached");
    expect(afterUpdate.tools.find((tool) => tool.name === "weather_lookup")?.summary).toBe("Weather, now.");
    expect(computeToolList(afterUpdate, { model: "gpt-5", agent: "build" }).final.find((tool) => tool.name === "weather_lookup")?.summary).toBe(
      "Weather, now.",
    );
  });

  it("is replaced when the local sources are reloaded, taking in their agents", async () => {
    const state = await catalogState(db, "cached");
    const agents = mkdtempSync(path.join(os.tmpdir(), "toolshed-state-agents-"));
    writeFileSync(path.join(agents, "auditor.md"), "---\nname: auditor\ndescription: Audits.\nmode: subagent\n---\nAudit.\n");
    await reloadLocalSources(folders(agents));
    const reloaded = await catalogState(db, "cached");
    expect(reloaded).not.toBe(state);
    expect(reloaded.agents.map((agent) => agent.name)).toContain("auditor");
    expect(await catalogState(db, "cached")).toBe(reloaded);
  });

  it("is keyed by what the local files hold: the same files, read again or in another folder, keep the state", async () => {
    /** A folder of plugins and one of agents, holding these files. */
    const localFiles = (plugin: string, agent: string) => {
      const root = mkdtempSync(path.join(os.tmpdir(), "toolshed-state-files-"));
      for (const [folder, name, text] of [
        ["plugins", "quiet.mjs", plugin],
        ["agents", "auditor.md", agent],
      ]) {
        mkdirSync(path.join(root, folder));
        writeFileSync(path.join(root, folder, name), text);
      }
      return { TOOLSHED_PLUGINS_DIR: path.join(root, "plugins"), TOOLSHED_SKILLS_DIR: empty, TOOLSHED_AGENTS_DIR: path.join(root, "agents") };
    };
    const plugin = 'export default { name: "quiet", hooks: { "tool.definition": () => undefined } };\n';
    const agent = "---\nname: auditor\ndescription: Audits.\nmode: subagent\n---\nAudit.\n";
    const files = localFiles(plugin, agent);

    await reloadLocalSources(files);
    const state = await catalogState(db, "cached");
    await reloadLocalSources(files);
    expect(await catalogState(db, "cached")).toBe(state);
    await reloadLocalSources(localFiles(plugin, agent));
    expect(await catalogState(db, "cached")).toBe(state);

    await reloadLocalSources(localFiles(`// Edited.\n${plugin}`, agent));
    const pluginEdited = await catalogState(db, "cached");
    expect(pluginEdited).not.toBe(state);
    expect(pluginEdited.sourcesVersion).not.toBe(state.sourcesVersion);
    await reloadLocalSources(localFiles(plugin, agent.replace("Audit.", "Audit twice.")));
    const agentEdited = await catalogState(db, "cached");
    expect(new Set([state.sourcesVersion, pluginEdited.sourcesVersion, agentEdited.sourcesVersion]).size).toBe(3);
    // The tool list's answer says which local sources it was worked out with.
    expect((await readToolList(db, "cached", { model: "gpt-5", agent: "build" })).head.sourcesVersion).toBe(agentEdited.sourcesVersion);
  });

  it("does not take a catalog deleted and created again for the old one, nor mix databases", async () => {
    const state = await catalogState(db, "cached");
    await deleteCatalog(db, "cached");
    await expect(catalogState(db, "cached")).rejects.toBeInstanceOf(ToolshedError);
    // The version tells them apart by creation time, to the millisecond.
    await new Promise((resolve) => setTimeout(resolve, 2));
    await createCatalog(db, { name: "Cached again", id: "cached" }, ACTOR);
    const recreated = await catalogState(db, "cached");
    expect(recreated).not.toBe(state);
    expect(recreated.revision).toBe(state.revision);
    expect(await catalogVersion(db, "cached")).toMatch(new RegExp(`^${state.revision}/`));

    const other = await freshDatabase();
    await createCatalog(other, { name: "Cached", id: "cached" }, ACTOR);
    await createCustomTool(other, "cached", weather, ACTOR);
    const elsewhere = await catalogState(other, "cached");
    expect(elsewhere).not.toBe(recreated);
    expect(elsewhere.tools.map((tool) => tool.name)).toContain("weather_lookup");
    expect((await catalogState(db, "cached")).tools.map((tool) => tool.name)).not.toContain("weather_lookup");
  });

  it("catches up with each write: after random writes of every kind, the state is a whole read's, and untouched tools keep their objects (issue 29)", async () => {
    const set = loadLabelledSet(new URL("../../bench/data/services_b_heldout.json", import.meta.url));
    const drafts = candidatesOf(set).map((tool, index) => ({
      name: tool.name,
      summary: tool.summary,
      description: tool.description ?? "",
      inputSchema: { type: "object" as const, properties: { [tool.parameterNames?.[0] ?? "query"]: { type: "string" } } },
      tags: index % 5 === 0 ? ["even"] : [],
    }));
    await importTools(db, "cached", drafts, ACTOR);
    const random = seededRandom(29);
    const someTool = (state: { tools: readonly { name: string; source: string }[] }) => {
      const custom = state.tools.filter((tool) => tool.source === "custom");
      return custom[Math.floor(random() * custom.length)].name;
    };
    const writes: ((names: () => Promise<string>) => Promise<unknown>)[] = [
      async (name) => updateTool(db, "cached", await name(), { description: `Changed ${random()}: pulls the latest invoices from the ledger.` }, ACTOR),
      async (name) => updateTool(db, "cached", await name(), { name: `renamed_${Math.floor(random() * 1e6)}` }, ACTOR),
      async (name) => deleteTool(db, "cached", await name(), ACTOR),
      async () => createCustomTool(db, "cached", { ...weather, name: `weather_${Math.floor(random() * 1e6)}` }, ACTOR),
      async () =>
        importTools(
          db,
          "cached",
          drafts.slice(0, 100).map((draft) => ({ ...draft, description: `${draft.description} (again ${random()})` })),
          ACTOR,
        ),
      async (name) => bulkChangeTools(db, "cached", { action: "disable", names: [await name(), await name()] }, ACTOR),
      async (name) => {
        const { revision } = await bulkChangeTools(db, "cached", { action: "delete", names: [await name(), await name()] }, ACTOR);
        if (revision !== null) await undoBulkChange(db, "cached", revision, ACTOR);
      },
      async (name) => bulkChangeTools(db, "cached", { action: "tag", names: [await name()], addTags: ["later"] }, ACTOR),
    ];
    const selector = createLocalSelector();
    const ranking = async (state: Awaited<ReturnType<typeof catalogState>>) => {
      const frozen = state;
      const results = [];
      for (const query of set.cases.slice(0, 6).map((each) => each.query)) {
        const result = await preselect({
          state: frozen,
          revision: frozen.revision,
          request: { model: "gpt-5", agent: "build" },
          messages: [{ role: "user", content: query }],
          history: [],
          k: 5,
          selector,
        });
        results.push(result.selected.map((tool) => tool.name));
      }
      return results;
    };
    let earlier = await catalogState(db, "cached");
    for (let round = 0; round < 24; round++) {
      await writes[round % writes.length](async () => someTool(await catalogState(db, "cached")));
      const caughtUp = await catalogState(db, "cached");
      const whole = await loadCatalogState(db, "cached");
      expect(caughtUp.tools, `round ${round}`).toEqual(whole.tools);
      expect(caughtUp.revision).toBe(whole.revision);
      const before = new Map(earlier.tools.map((tool) => [tool.name, tool]));
      const kept = caughtUp.tools.filter((tool) => before.get(tool.name) === tool).length;
      expect(kept, `round ${round}: untouched tools keep their objects`).toBeGreaterThan(caughtUp.tools.length - 110);
      earlier = caughtUp;
    }
    expect(await ranking(await catalogState(db, "cached"))).toEqual(
      await ranking(freezeCatalogState({ ...(await loadCatalogState(db, "cached")), sourcesVersion: "" })),
    );
  });

  it("keeps at most CATALOG_STATES_CACHED catalogs per database", async () => {
    for (let index = 0; index < CATALOG_STATES_CACHED + 3; index++) {
      await createCatalog(db, { name: `Catalog ${index}`, id: `catalog-${index}` }, ACTOR);
      await catalogState(db, `catalog-${index}`);
    }
    expect(cachedCatalogStates(db)).toBe(CATALOG_STATES_CACHED);
  });
});
