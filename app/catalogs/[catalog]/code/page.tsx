import { pageCatalogAccess } from "@/app/_services/access";
import { CatalogCodePage } from "@/components/catalog-code-page";

export const metadata = { title: "Code" };

export default async function CatalogCodeRoute({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  const { access } = await pageCatalogAccess(catalog);
  return <CatalogCodePage catalogId={catalog} mayApply={access !== "read"} />;
}
