import { getDb } from "@/db/client";
import { listCatalogSummaries } from "@/db/queries/catalogs";
import { CatalogManager } from "@/components/catalog-manager";

export const dynamic = "force-dynamic";

export default function CatalogsPage() {
  const catalogs = listCatalogSummaries(getDb());
  return (
    <main className="page">
      <div className="page-header">
        <div>
          <h1>Catalogs</h1>
          <p className="sub">Each catalog is one team&apos;s registry of the tools its agents may be handed.</p>
        </div>
      </div>
      <CatalogManager catalogs={catalogs} />
    </main>
  );
}
