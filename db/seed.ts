import "server-only";
import { DEMO_CATALOG, DEMO_TOOLS } from "@/lib/demo";
import { writeTransaction, type Db } from "./client";
import { upgradeCatalog, createCatalog, listCatalogs } from "./queries/catalogs";
import { readSetting, writeSetting } from "./queries/settings";
import { getSecretKey } from "@/lib/secrets";
import { mcpPolicyProblem } from "@/lib/sources/mcp";
import { createMcpServer, encryptStoredMcpSecrets } from "./queries/mcp-servers";
import { importTools } from "./queries/tools";

const SEED_ACTOR = "seed";
const DEMO_SEEDED = "demo_seeded_at";
/** The stdio MCP server the repository ships: the demo catalog shows MCP tools live from the start. */
const DEMO_MCP_SERVER = { name: "notes", transport: "stdio" as const, command: "node", args: ["mcp-servers/demo-server.mjs"] };

/**
 * Start-up data: the demo catalog, once in the life of a database (deleting it is respected), and
 * any built-in that a newer release ships added to every catalog. The secret key is checked (or
 * its file created) and MCP secrets an older version stored in the clear are encrypted. Safe to
 * run at every start.
 */
export async function seed(db: Db, { demo }: { demo: boolean }): Promise<void> {
  // At start: a malformed TOOLSHED_SECRET_KEY stops it here, and the key file is created now.
  getSecretKey();
  await encryptStoredMcpSecrets(db);
  const catalogs = await listCatalogs(db);
  for (const catalog of catalogs) await upgradeCatalog(db, catalog.id, SEED_ACTOR);
  if (!demo || (await readSetting(db, DEMO_SEEDED)) !== undefined) return;
  await writeTransaction(db, async (tx) => {
    if (!catalogs.some((catalog) => catalog.id === DEMO_CATALOG.id)) {
      await createCatalog(tx, DEMO_CATALOG, SEED_ACTOR);
      await importTools(
        tx,
        DEMO_CATALOG.id,
        DEMO_TOOLS.map((tool) => ({ ...tool, tags: [...tool.tags] })),
        SEED_ACTOR,
      );
      // Not when the operator's TOOLSHED_MCP_STDIO_COMMANDS leaves the demo server out.
      if (!mcpPolicyProblem(DEMO_MCP_SERVER)) await createMcpServer(tx, DEMO_CATALOG.id, DEMO_MCP_SERVER, SEED_ACTOR);
    }
    await writeSetting(tx, DEMO_SEEDED, new Date().toISOString());
  });
}
