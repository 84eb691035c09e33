import { pageCatalogAccess } from "@/app/_services/access";
import { Suspense } from "react";
import { QualityPanel } from "@/components/quality-panel";
import { ToolTable } from "@/components/tool-table";

export default async function ToolsPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  await pageCatalogAccess(catalog);
  return (
    <div className="stack">
      <QualityPanel catalogId={catalog} />
      <Suspense>
        <ToolTable catalogId={catalog} />
      </Suspense>
    </div>
  );
}
