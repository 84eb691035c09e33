import type { Metadata } from "next";
import { pageCatalogAccess } from "@/app/_services/access";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { findTool } from "@/db/queries/tools";
import { ToolDetail } from "@/components/tool-detail";

export async function generateMetadata({ params }: { params: Promise<{ catalog: string; name: string }> }): Promise<Metadata> {
  const { name } = await params;
  return { title: `Tool ${decodeURIComponent(name)}` };
}

export default async function ToolPage({ params }: { params: Promise<{ catalog: string; name: string }> }) {
  const { catalog, name } = await params;
  await pageCatalogAccess(catalog);
  const tool = await findTool(getDb(), catalog, decodeURIComponent(name));
  if (!tool) notFound();
  return <ToolDetail catalogId={catalog} tool={tool} />;
}
