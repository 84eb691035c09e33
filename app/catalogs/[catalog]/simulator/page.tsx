import { pageCatalogAccess } from "@/app/_services/access";
import { Suspense } from "react";
import { getDb } from "@/db/client";
import { listAgents } from "@/db/queries/agents";
import { Simulator } from "@/components/simulator";
import { KNOWN_MODELS } from "@/lib/rules/providers";

export const metadata = { title: "Simulator" };

export default async function SimulatorPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  await pageCatalogAccess(catalog);
  const agents = (await listAgents(getDb(), catalog)).map((agent) => ({ name: agent.name, mode: agent.mode }));
  return (
    <Suspense>
      <Simulator catalogId={catalog} agents={agents} knownModels={KNOWN_MODELS} />
    </Suspense>
  );
}
