import { count, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { type DecisionFilter, type DecisionSummary, pageDecisions } from "@/db/queries/decisions";
import { decisions } from "@/db/tables";

/** The decisions of pageDecisions' first page, alone. */
export async function listDecisions(db: Db, catalogId: string, filter: DecisionFilter = {}): Promise<DecisionSummary[]> {
  return (await pageDecisions(db, catalogId, filter)).decisions;
}

/** How many decisions a catalog holds. */
export async function countDecisions(db: Db, catalogId: string): Promise<number> {
  return (await db.select({ count: count() }).from(decisions).where(eq(decisions.catalogId, catalogId)))[0].count;
}
