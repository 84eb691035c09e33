import { redirect } from "next/navigation";

export default async function CatalogIndex({ params }: { params: Promise<{ catalog: string }> }) {
  const { catalog } = await params;
  redirect(`/catalogs/${encodeURIComponent(catalog)}/tools`);
}
