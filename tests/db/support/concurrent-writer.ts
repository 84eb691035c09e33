/**
 * One of the writers of tests/db/concurrent-writers.test.ts: its own process and connection,
 * writing one catalog and one conversation in a tight loop. Prints "ready", waits for "go" on
 * stdin (so that all writers start together), then prints a JSON summary: operations done and
 * every error met.
 *
 *   tsx tests/db/support/concurrent-writer.ts <database file> <writer> <iterations> <conversation>
 */
import { createInterface } from "node:readline";
import { closeDb, openDb } from "@/db/client";
import { addToHistory } from "@/db/queries/conversations";
import { recordDecision } from "@/db/queries/decisions";
import { createCustomTool, updateTool } from "@/db/queries/tools";

const [file, writer, iterations, conversationId] = process.argv.slice(2);
const db = openDb(file);
const errors: string[] = [];
let operations = 0;

async function attempt(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
    operations++;
  } catch (error) {
    errors.push((error as Error).message);
  }
}

process.stdout.write("ready\n");
const lines = createInterface({ input: process.stdin });
lines.once("line", async () => {
  for (let index = 0; index < Number(iterations); index++) {
    await attempt(() => updateTool(db, "team", "shared_tool", { tags: [`w${writer}-${index}`] }, `writer-${writer}`));
    await attempt(() => addToHistory(db, conversationId, [`w${writer}_h${index}`]));
    if (index % 10 === 0) {
      await attempt(() =>
        createCustomTool(
          db,
          "team",
          { name: `w${writer}_t${index}`, summary: "A tool.", description: "", inputSchema: { type: "object", properties: {} } },
          `writer-${writer}`,
        ),
      );
      await attempt(() =>
        recordDecision(db, {
          catalogId: "team",
          conversationId,
          revision: 0,
          kind: "tool-search",
          path: "exact",
          model: "m",
          agent: "a",
          mode: null,
          flags: [],
          input: { query: `select:w${writer}_t${index}`, messages: [{ role: "user", content: `writer ${writer} turn ${index}` }] },
          selector: null,
          fallback: null,
          raw: [],
          result: { requested: [], tools: [] },
          rejected: [],
          latencyMs: 0,
          tokens: {},
        }),
      );
    }
  }
  process.stdout.write(`${JSON.stringify({ operations, errors })}\n`);
  lines.close();
  await closeDb(db);
});
