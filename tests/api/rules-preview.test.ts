import { beforeEach, describe, expect, it } from "vitest";
import { previewModelRules } from "@/app/_services/rules-preview";
import type { Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { getRules } from "@/db/queries/rules";
import { ToolshedError } from "@/lib/errors";
import { DEFAULT_MODEL_RULES } from "@/lib/rules/model-rules";
import { useFreshDatabase } from "./helpers";

const CATALOG = "preview";
let db: Db;

beforeEach(async () => {
  db = await useFreshDatabase();
  await createCatalog(db, { name: "Preview", id: CATALOG }, "test");
});

describe("previewing model rules before they are saved", () => {
  it("tells what the draft adds to and removes from a model's and agent's list, and saves nothing", async () => {
    // The draft drops the GPT rule: gpt-5 gets edit and write back, and loses apply_patch.
    const preview = await previewModelRules(db, CATALOG, [DEFAULT_MODEL_RULES[0]], { model: "gpt-5", agent: "build" });
    expect(preview).toMatchObject({ model: "gpt-5", agent: "build", removed: ["apply_patch"] });
    expect([...preview.added].sort()).toEqual(["edit", "write"]);
    expect(preview.after).toBe(preview.before + 1);
    expect((await getRules(db, CATALOG)).modelRules).toEqual(DEFAULT_MODEL_RULES);

    const unchanged = await previewModelRules(db, CATALOG, DEFAULT_MODEL_RULES, { model: "claude-sonnet-4", agent: "build" });
    expect(unchanged).toMatchObject({ added: [], removed: [] });
  });

  it("refuses a draft the save would refuse, naming the field", async () => {
    const typo = { ...DEFAULT_MODEL_RULES[1], disable: ["edit", "wirte"] };
    const refused = await previewModelRules(db, CATALOG, [typo], { model: "gpt-5", agent: "build" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolshedError);
    expect((refused as ToolshedError).problems).toEqual([{ field: "modelRules.0.disable.1", message: 'There is no tool named "wirte" in this catalog.' }]);
  });
});
