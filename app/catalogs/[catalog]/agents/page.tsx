import { pageCatalogAccess } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listAgents } from "@/db/queries/agents";
import { listTools } from "@/db/queries/tools";
import { AgentsEditor } from "@/components/agents-editor";

export const metadata = { title: "Agents" };

export default async function AgentsPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  await pageCatalogAccess(catalog);
  const db = getDb();
  const agents = await listAgents(db, catalog);
  const toolNames = (await listTools(db, catalog)).map((tool) => tool.name);
  return <AgentsEditor catalogId={catalog} agents={agents} toolNames={toolNames} />;
}
