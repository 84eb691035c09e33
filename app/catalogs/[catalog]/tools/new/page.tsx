import Link from "next/link";
import { notFound } from "next/navigation";
import { pageCatalogAccess } from "@/app/_services/access";
import { grants } from "@/lib/auth/policy";
import { ToolEditor } from "@/components/tool-editor";

export const metadata = { title: "New tool" };

export default async function NewToolPage({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  const { access } = await pageCatalogAccess(catalog);
  if (!grants(access, "write")) notFound();
  return (
    <div className="stack">
      <div className="crumbs">
        <Link href={`/catalogs/${catalog}/tools`}>Tools</Link> / new custom tool
      </div>
      <ToolEditor catalogId={catalog} />
    </div>
  );
}
