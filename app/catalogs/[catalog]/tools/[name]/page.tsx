import type { Metadata } from "next";
import { pageCatalogAccess } from "@/app/_services/access";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { listToolHistory } from "@/db/queries/audit";
import { getRules } from "@/db/queries/rules";
import { findTool } from "@/db/queries/tools";
import { DeletedTool, ToolDetail } from "@/components/tool-detail";

export async function generateMetadata({ params }: { params: Promise<{ catalog: string; name: string }> }): Promise<Metadata> {
  const { name } = await params;
  return { title: `Tool ${decodeURIComponent(name)}` };
}

export default async function ToolPage({ params }: { params: Promise<{ catalog: string; name: string }> }) {
  const { catalog, name } = await params;
  await pageCatalogAccess(catalog);
  const db = getDb();
  const toolName = decodeURIComponent(name);
  const tool = await findTool(db, catalog, toolName);
  if (tool) {
    const overrides = (await getRules(db, catalog)).overrides.filter((override) => override.tool === tool.name);
    return <ToolDetail catalogId={catalog} tool={tool} overrides={overrides} />;
  }
  // A name with a history (a deleted or renamed tool) shows it, so that the tool can be restored.
  if ((await listToolHistory(db, catalog, toolName, 1)).length === 0) notFound();
  return <DeletedTool catalogId={catalog} name={toolName} />;
}
