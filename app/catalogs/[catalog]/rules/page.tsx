import { pageCatalogAccess } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listAgents } from "@/db/queries/agents";
import { getCatalog } from "@/db/queries/catalogs";
import { getRules } from "@/db/queries/rules";
import { listTools } from "@/db/queries/tools";
import { RulesWithHistory } from "@/components/rules-with-history";
import { KNOWN_MODELS } from "@/lib/rules/providers";

export const metadata = { title: "Rules" };

export default async function RulesPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  await pageCatalogAccess(catalog);
  const db = getDb();
  const rules = await getRules(db, catalog);
  const toolNames = (await listTools(db, catalog)).map((tool) => tool.name);
  const { revision } = await getCatalog(db, catalog);
  const agents = (await listAgents(db, catalog)).map((agent) => agent.name);
  return <RulesWithHistory catalogId={catalog} revision={revision} rules={rules} toolNames={toolNames} knownModels={KNOWN_MODELS} agents={agents} />;
}
