import { pageCatalogAccess } from "@/app/_services/access";
import { serverOffers } from "@/app/_services/mcp-federation";
import { mcpServerViewFor } from "@/app/_services/mcp-views";
import { localSources } from "@/app/_services/local-sources";
import { getDb } from "@/db/client";
import { listAgents } from "@/db/queries/agents";
import { listMcpServers } from "@/db/queries/mcp-servers";
import type { Transport } from "@/components/mcp-add-form-schema";
import { SourcesPage } from "@/components/sources-page";
import type { LocalSourcesSummary } from "@/components/sources-folders";
import { isInstanceAdmin } from "@/lib/auth/policy";
import { allowsPrivateAddresses, mcpConnectTimeoutMs } from "@/lib/sources/mcp";

export const metadata = { title: "Sources" };

export default async function SourcesRoute({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  const { principal, access } = await pageCatalogAccess(catalog);
  const instanceAdmin = isInstanceAdmin(principal);
  // What addMcpServer lets this person add: the same rule, shown before they try.
  const addableTransports: Transport[] = instanceAdmin ? ["stdio", "http"] : allowsPrivateAddresses() ? [] : ["http"];
  const db = getDb();
  const local = await localSources();
  // Only plain data crosses to the client: plugin hooks are functions, schemas are not shown here.
  const summary: LocalSourcesSummary = {
    folders: local.folders,
    loadedAt: local.loadedAt,
    plugins: local.plugins.map((plugin) => ({
      name: plugin.name,
      file: plugin.file,
      tools: plugin.tools.map((tool) => ({ name: tool.name, summary: tool.summary })),
      hasDefinitionHook: typeof plugin.hooks["tool.definition"] === "function",
    })),
    skills: local.skills.map(({ name, description, file }) => ({ name, description, file })),
    fileAgents: local.agents.map(({ name, description, mode, file }) => ({ name, description, mode, file })),
    errors: local.errors,
  };
  const agents = (await listAgents(db, catalog)).map(({ name, description, mode }) => ({ name, description, mode }));
  const servers = (await listMcpServers(db, catalog)).map((server) => mcpServerViewFor(catalog, server, access));
  const offers = await serverOffers(
    catalog,
    servers.map((server) => server.name),
  );
  return (
    <SourcesPage
      catalogId={catalog}
      servers={servers}
      offers={offers}
      local={summary}
      catalogAgents={agents}
      renderedAt={Date.now()}
      addableTransports={addableTransports}
      mayReload={instanceAdmin}
      connectTimeoutMs={mcpConnectTimeoutMs()}
    />
  );
}
