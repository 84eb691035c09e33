import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { findCatalog } from "@/db/queries/catalogs";
import { CatalogTabs } from "@/components/catalog-tabs";

export const dynamic = "force-dynamic";

export default async function CatalogLayout({ children, params }: { children: React.ReactNode; params: Promise<{ catalog: string }> }) {
  const { catalog: id } = await params;
  const catalog = findCatalog(getDb(), id);
  if (!catalog) notFound();
  return (
    <main className="page">
      <div className="crumbs">
        <Link href="/">Catalogs</Link> /
      </div>
      <div className="page-header">
        <div>
          <h1 data-testid="catalog-title">{catalog.name}</h1>
          <p className="sub">{catalog.description || <span className="faint">No description.</span>}</p>
        </div>
        <span className="badge" title="Every change bumps the revision">revision {catalog.revision}</span>
      </div>
      <CatalogTabs catalogId={catalog.id} />
      {children}
    </main>
  );
}
