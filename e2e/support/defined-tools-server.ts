import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import type { SourcesPage } from "../pages/sources-page";

/** A real stdio MCP server whose tools a JSON file defines, read again at every listing (the e2e apps' allowlist has it). */
const SERVER_SCRIPT = "tests/fixtures/mcp/defined-tools-server.mjs";

/** The server's tools, as it lists them: `{ name, description, inputSchema?, annotations?, title? }`. */
type ToolsFile = object[];

/** The added server: `define` rewrites its tools file (it takes effect at the next sync). */
export interface DefinedToolsServer {
  define(tools: ToolsFile): void;
}

/**
 * Adds the server "shop" defining `tools` on the Sources page (an admin's browser: API tokens may
 * not start processes); returns how to have it define other tools, as an upgraded server would.
 */
export async function addDefinedToolsServer(sources: SourcesPage, page: Page, tools: ToolsFile): Promise<DefinedToolsServer> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-e2e-shop-")), "tools.json");
  const define = (next: ToolsFile) => writeFileSync(file, JSON.stringify(next));
  define(tools);
  await sources.goto();
  await sources.fillStdio({ name: "shop", command: "node", args: [SERVER_SCRIPT, file] });
  await sources.submit();
  await expect(page.getByText(`Added shop: ${tools.length} tool(s) registered`)).toBeVisible();
  return { define };
}
