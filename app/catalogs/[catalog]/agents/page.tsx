import { pageCatalogAccess } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listAgents } from "@/db/queries/agents";
import { getCatalog } from "@/db/queries/catalogs";
import { listTools } from "@/db/queries/tools";
import { AgentsEditor } from "@/components/agents-editor";
import { CatalogHistory } from "@/components/audit-history";

export const metadata = { title: "Agents" };

export default async function AgentsPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  await pageCatalogAccess(catalog);
  const db = getDb();
  const { revision } = await getCatalog(db, catalog);
  const toolNames = (await listTools(db, catalog)).map((tool) => tool.name);
  return (
    <div className="stack">
      <AgentsEditor catalogId={catalog} agents={await listAgents(db, catalog)} toolNames={toolNames} />
      <CatalogHistory catalogId={catalog} of="agents" revision={revision} />
    </div>
  );
}
