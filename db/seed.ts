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
export function seed(db: Db, { demo }: { demo: boolean }): void {
  // At start: a malformed TOOLSHED_SECRET_KEY stops it here, and the key file is created now.
  getSecretKey();
  encryptStoredMcpSecrets(db);
  const catalogs = listCatalogs(db);
  for (const catalog of catalogs) upgradeCatalog(db, catalog.id, SEED_ACTOR);
  if (!demo || readSetting(db, DEMO_SEEDED) !== undefined) return;
  writeTransaction(db, (tx) => {
    const txDb = tx as unknown as Db;
    if (!catalogs.some((catalog) => catalog.id === DEMO_CATALOG.id)) {
      createCatalog(txDb, DEMO_CATALOG, SEED_ACTOR);
      // The outer handle: the import and the server write on the same connection, inside this transaction (as savepoints).
      importTools(
        db,
        DEMO_CATALOG.id,
        DEMO_TOOLS.map((tool) => ({ ...tool, tags: [...tool.tags] })),
        SEED_ACTOR,
      );
      // Not when the operator's TOOLSHED_MCP_STDIO_COMMANDS leaves the demo server out.
      if (!mcpPolicyProblem(DEMO_MCP_SERVER)) createMcpServer(db, DEMO_CATALOG.id, DEMO_MCP_SERVER, SEED_ACTOR);
    }
    writeSetting(txDb, DEMO_SEEDED, new Date().toISOString());
  });
}
