import { pageCatalogAccess } from "@/app/_services/access";
import { availableSelectors } from "@/app/_services/evaluations";
import { EvaluatePage } from "@/components/evaluate-page";

export const metadata = { title: "Evaluate" };

export default async function EvaluateRoute({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  await pageCatalogAccess(catalog);
  return <EvaluatePage catalogId={catalog} selectors={availableSelectors()} />;
}
