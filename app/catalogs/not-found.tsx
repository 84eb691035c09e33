"use client";

import { useParams } from "next/navigation";
import { NotFoundPanel } from "@/components/page-problems";

export default function CatalogNotFound() {
  const params = useParams<{ catalog?: string }>();
  return (
    <main className="page">
      <NotFoundPanel title="Catalog not found" back={{ href: "/", label: "Back to the catalogs" }} testId="catalog-not-found">
        There is no catalog {params.catalog ? <code>{decodeURIComponent(params.catalog)}</code> : null} here.
      </NotFoundPanel>
    </main>
  );
}
