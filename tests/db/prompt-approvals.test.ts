import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { createCatalog, deleteCatalog, getCatalog } from "@/db/queries/catalogs";
import { approvePromptDefinition, keepFirstPromptApprovals, readPromptApprovals } from "@/db/queries/prompt-approvals";
import { freshDatabase } from "../support/fresh-database";

let db: Db;
beforeEach(async () => {
  db = await freshDatabase();
  await createCatalog(db, { name: "Team", id: "team" }, "test");
  await createCatalog(db, { name: "Team 2", id: "team-2" }, "test");
});

describe("prompt approvals", () => {
  it("records an editor's approval in the audit log, in a revision of its own", async () => {
    await keepFirstPromptApprovals(db, "team", "notes", { summarise: "first" });
    const before = (await getCatalog(db, "team")).revision;
    await approvePromptDefinition(db, "team", "notes", "summarise", "second", "editor@example.com");
    expect(await readPromptApprovals(db, "team", "notes")).toEqual({ summarise: "second" });
    const [entry] = await listAudit(db, "team", { limit: 1 });
    expect(entry).toMatchObject({
      subjectKind: "prompt",
      subject: "notes/summarise",
      action: "approve-prompt",
      actor: "editor@example.com",
      before: { digest: "first" },
      after: { digest: "second" },
      revision: before + 1,
    });
    expect((await getCatalog(db, "team")).revision).toBe(before + 1);
  });

  it("refuses an approval in a catalog that does not exist, writing nothing", async () => {
    await expect(approvePromptDefinition(db, "nowhere", "notes", "summarise", "x", "editor@example.com")).rejects.toThrow('Catalog "nowhere"');
    expect(await readPromptApprovals(db, "nowhere", "notes")).toBeUndefined();
  });

  it("goes with its catalog, and only with its own", async () => {
    await keepFirstPromptApprovals(db, "team", "notes", { summarise: "a" });
    await approvePromptDefinition(db, "team", "docs", "review", "b", "editor@example.com");
    await keepFirstPromptApprovals(db, "team-2", "notes", { summarise: "c" });
    await deleteCatalog(db, "team");
    expect(await readPromptApprovals(db, "team", "notes")).toBeUndefined();
    expect(await readPromptApprovals(db, "team", "docs")).toBeUndefined();
    expect(await readPromptApprovals(db, "team-2", "notes")).toEqual({ summarise: "c" });
  });
});
