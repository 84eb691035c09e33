import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { catalogAccessOf, currentUser, pageCatalogAccess } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { findCatalog } from "@/db/queries/catalogs";
import { CatalogAccessProvider } from "@/components/catalog-access";
import { CatalogRevisionProvider } from "@/components/catalog-revision";
import { CatalogTabs } from "@/components/catalog-tabs";
import { RevisionBadge } from "@/components/revision-badge";

const ROLE_NAMES = { read: "viewer", write: "editor", admin: "admin" } as const;

export const dynamic = "force-dynamic";

/** Every section of a catalog that is not there, or not for this person, has the 404 page's title. */
const NOT_FOUND_TITLE = "Not found · Toolshed";

/**
 * Each section's title names the catalog: "Tools · Demo · Toolshed", for those who may see it. It
 * never throws: the layout itself redirects or answers 404 (a 404 thrown here left the page without a title).
 */
export async function generateMetadata({ params }: { params: Promise<{ catalog: string }> }): Promise<Metadata> {
  const { catalog: id } = await params;
  const user = await currentUser();
  const catalog = user && (await catalogAccessOf(user, id)) !== null ? await findCatalog(getDb(), id) : undefined;
  return catalog
    ? { title: { default: catalog.name, template: `%s · ${catalog.name} · Toolshed` } }
    : { title: { absolute: NOT_FOUND_TITLE, template: NOT_FOUND_TITLE } };
}

export default async function CatalogLayout({ children, params }: { children: React.ReactNode; params: Promise<{ catalog: string }> }) {
  const { catalog: id } = await params;
  const { access } = await pageCatalogAccess(id);
  const catalog = await findCatalog(getDb(), id);
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
        <span className="row">
          <span className="badge" data-testid="catalog-role" title={`Your role in team "${catalog.teamId}"`}>
            {ROLE_NAMES[access]} · {catalog.teamId}
          </span>
          <RevisionBadge catalogId={catalog.id} revision={catalog.revision} />
        </span>
      </div>
      <CatalogTabs catalogId={catalog.id} />
      <CatalogAccessProvider access={access}>
        <CatalogRevisionProvider revision={catalog.revision}>{children}</CatalogRevisionProvider>
      </CatalogAccessProvider>
    </main>
  );
}
