import { pageCatalogAccess } from "@/app/_services/access";
import { Suspense } from "react";
import { getDb } from "@/db/client";
import { listConversations } from "@/db/queries/conversations";
import { DecisionsList } from "@/components/decisions-list";

export const metadata = { title: "Decisions" };

export default async function DecisionsPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  await pageCatalogAccess(catalog);
  const conversations = (await listConversations(getDb(), catalog)).map(({ id, title }) => ({ id, title }));
  return (
    <Suspense>
      <DecisionsList catalogId={catalog} conversations={conversations} />
    </Suspense>
  );
}
