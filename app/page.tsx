import { pageUser } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listCatalogSummaries } from "@/db/queries/catalogs";
import { listTeams } from "@/db/queries/teams";
import { CatalogManager } from "@/components/catalog-manager";

export const dynamic = "force-dynamic";
// The root layout's title template reaches only the pages below it.
export const metadata = { title: { absolute: "Catalogs · Toolshed" } };

export default async function CatalogsPage() {
  const user = await pageUser();
  const db = getDb();
  const catalogs = await listCatalogSummaries(db, Object.keys(user.roles));
  const teams = (await listTeams(db, Object.keys(user.roles))).map((team) => ({ ...team, role: user.roles[team.id] }));
  return (
    <main className="page">
      <div className="page-header">
        <div>
          <h1>Catalogs</h1>
          <p className="sub">Each catalog is one team&apos;s registry of the tools its agents may be handed.</p>
        </div>
      </div>
      <CatalogManager catalogs={catalogs} teams={teams} />
    </main>
  );
}
