import { Suspense } from "react";
import { ToolTable } from "@/components/tool-table";

export default async function ToolsPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  return (
    <Suspense>
      <ToolTable catalogId={catalog} />
    </Suspense>
  );
}
