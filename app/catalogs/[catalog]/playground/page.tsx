import { pageCatalogAccess } from "@/app/_services/access";
import { Suspense } from "react";
import { getDb } from "@/db/client";
import { listAgents } from "@/db/queries/agents";
import { Playground } from "@/components/playground";
import { describeModelConfig } from "@/lib/ai/models";
import { principalKey } from "@/lib/auth/policy";
import { KNOWN_MODELS } from "@/lib/rules/providers";

export const metadata = { title: "Playground" };
export const dynamic = "force-dynamic";

export default async function PlaygroundPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  const { principal, access } = await pageCatalogAccess(catalog);
  const config = describeModelConfig(process.env);
  const agents = (await listAgents(getDb(), catalog)).map((agent) => ({ name: agent.name, mode: agent.mode }));
  return (
    <Suspense>
      <Playground
        catalogId={catalog}
        agents={agents}
        knownModels={KNOWN_MODELS.map((model) => model.id)}
        mainModel={config.main.spec && !config.main.error ? config.main.spec : null}
        mainModelError={config.main.error}
        auxSelector={config.aux.error ? `local (${config.aux.spec} is misconfigured)` : (config.aux.spec ?? "local")}
        viewer={{ key: principalKey(principal), access }}
      />
    </Suspense>
  );
}
