import { afterEach, describe, expect, it, vi } from "vitest";
import { DECISION_CLEANUP_LEASE, startDecisionCleanup } from "@/app/_services/retention";
import { createCatalog } from "@/db/queries/catalogs";
import { recordDecision } from "@/db/queries/decisions";
import { countDecisions } from "../support/decisions";
import { releaseLease, takeLease } from "@/db/queries/leases";
import { freshDatabase } from "../support/fresh-database";

const ANOTHER_INSTANCE = "another-instance";
let stop = () => {};
afterEach(() => stop());

describe("the decision-log cleanup across instances", () => {
  it("runs only in the instance that holds its lease, which it keeps, and gives up when stopped", async () => {
    const db = await freshDatabase();
    await createCatalog(db, { name: "Team", id: "team" }, "test");
    for (let index = 0; index < 3; index++) {
      await recordDecision(db, {
        catalogId: "team",
        revision: 1,
        kind: "preselect",
        path: "preselect",
        model: "gpt-5",
        agent: "build",
        input: {},
        result: {},
        rejected: [],
        latencyMs: 1,
        tokens: {},
      });
    }
    expect(await takeLease(db, DECISION_CLEANUP_LEASE, ANOTHER_INSTANCE, 60_000)).toBe(true);

    stop = startDecisionCleanup(db, { days: 0, rowsPerCatalog: 1, intervalMs: 20 });
    // Many rounds while another instance holds the lease: none of them cleans up.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Number(await countDecisions(db, "team"))).toBe(3);

    await releaseLease(db, DECISION_CLEANUP_LEASE, ANOTHER_INSTANCE);
    await vi.waitFor(async () => expect(Number(await countDecisions(db, "team"))).toBe(1));
    expect(await takeLease(db, DECISION_CLEANUP_LEASE, ANOTHER_INSTANCE, 60_000)).toBe(false);

    stop();
    await vi.waitFor(async () => expect(await takeLease(db, DECISION_CLEANUP_LEASE, ANOTHER_INSTANCE, 60_000)).toBe(true));
  });
});
