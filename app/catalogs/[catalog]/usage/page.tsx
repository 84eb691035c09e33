import { pageCatalogAccess } from "@/app/_services/access";
import { UsagePage } from "@/components/usage-page";

export const metadata = { title: "Usage" };

export default async function UsageRoute({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  await pageCatalogAccess(catalog);
  return <UsagePage catalogId={catalog} />;
}
