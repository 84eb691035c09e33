import { pageCatalogAccess } from "@/app/_services/access";
import { notFound } from "next/navigation";
import { selectorRegistry } from "@/app/_services/selection";
import { getDb } from "@/db/client";
import { getDecision, type Decision } from "@/db/queries/decisions";
import { DecisionDetail } from "@/components/decision-detail";
import { ReplayPanel } from "@/components/replay-panel";
import { isFederationKind } from "@/lib/selection/types";
import { ToolshedError } from "@/lib/errors";

export const metadata = { title: "Decision" };

async function findDecision(id: string): Promise<Decision | undefined> {
  try {
    return await getDecision(getDb(), id);
  } catch (error) {
    if (error instanceof ToolshedError && error.code === "not_found") return undefined;
    throw error;
  }
}

export default async function DecisionPage({ params }: { params: Promise<{ catalog: string; id: string }> }) {
  const { catalog, id } = await params;
  await pageCatalogAccess(catalog);
  const decision = await findDecision(decodeURIComponent(id));
  if (!decision || decision.catalogId !== catalog) notFound();
  const { local, aux, hybrid } = selectorRegistry();
  const selectors = [...new Set([local.id, ...(hybrid ? [hybrid.id] : []), aux.id])];
  const intended = decision.fallback?.from ?? decision.selector;
  return (
    <DecisionDetail
      catalogId={catalog}
      decision={decision}
      replay={
        !isFederationKind(decision.kind) && (
          <ReplayPanel
            decisionId={decision.id}
            kind={decision.kind}
            selectors={selectors}
            defaultSelector={intended && selectors.includes(intended) ? intended : aux.id}
          />
        )
      }
    />
  );
}
