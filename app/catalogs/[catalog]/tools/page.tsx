import { pageCatalogAccess } from "@/app/_services/access";
import { Suspense } from "react";
import { DefinitionReviews } from "@/components/definition-reviews";
import { QualityPanel } from "@/components/quality-panel";
import { ToolTable } from "@/components/tool-table";

export const metadata = { title: "Tools" };

export default async function ToolsPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  await pageCatalogAccess(catalog);
  return (
    <div className="stack">
      <DefinitionReviews catalogId={catalog} />
      <QualityPanel catalogId={catalog} />
      <Suspense>
        <ToolTable catalogId={catalog} />
      </Suspense>
    </div>
  );
}
