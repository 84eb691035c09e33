"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const SECTIONS = [
  { path: "tools", label: "Tools" },
  { path: "rules", label: "Rules" },
  { path: "agents", label: "Agents" },
  { path: "sources", label: "Sources" },
  { path: "simulator", label: "Simulator" },
  { path: "playground", label: "Playground" },
  { path: "decisions", label: "Decisions" },
  { path: "evaluate", label: "Evaluate" },
] as const;

export function CatalogTabs({ catalogId }: { catalogId: string }) {
  const pathname = usePathname();
  return (
    <nav className="tabs" aria-label="Catalog sections">
      {SECTIONS.map((section) => {
        const href = `/catalogs/${catalogId}/${section.path}`;
        const current = pathname === href || pathname.startsWith(`${href}/`);
        return (
          <Link key={section.path} href={href} aria-current={current ? "page" : undefined}>
            {section.label}
          </Link>
        );
      })}
    </nav>
  );
}
