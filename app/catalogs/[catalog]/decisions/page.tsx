import { pageCatalogAccess } from "@/app/_services/access";
import { selectorRegistry } from "@/app/_services/selection";
import { Suspense } from "react";
import { getDb } from "@/db/client";
import { listConversations } from "@/db/queries/conversations";
import { DecisionsList } from "@/components/decisions-list";

export const metadata = { title: "Decisions" };

export default async function DecisionsPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  await pageCatalogAccess(catalog);
  const conversations = (await listConversations(getDb(), catalog)).map(({ id, title }) => ({ id, title }));
  const { local, aux, hybrid } = selectorRegistry();
  const selectors = [...new Set([local.id, ...(hybrid ? [hybrid.id] : []), aux.id])];
  return (
    <Suspense>
      <DecisionsList catalogId={catalog} conversations={conversations} selectors={selectors} />
    </Suspense>
  );
}
