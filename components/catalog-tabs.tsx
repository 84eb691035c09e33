"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

const SECTIONS = [
  { path: "tools", label: "Tools" },
  { path: "rules", label: "Rules" },
  { path: "agents", label: "Agents" },
  { path: "sources", label: "Sources" },
  { path: "simulator", label: "Simulator" },
  { path: "playground", label: "Playground" },
  { path: "decisions", label: "Decisions" },
  { path: "usage", label: "Usage" },
  { path: "evaluate", label: "Evaluate" },
  { path: "code", label: "Code" },
] as const;

export function CatalogTabs({ catalogId }: { catalogId: string }) {
  const pathname = usePathname();
  const nav = useRef<HTMLElement>(null);
  // On a narrow screen the tabs scroll sideways: the current one is scrolled into sight (the nav only, not the page).
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new pathname is what moves the current tab, though the effect does not read it
  useEffect(() => {
    const tabs = nav.current;
    const current = tabs?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!tabs || !current) return;
    const shown = tabs.getBoundingClientRect();
    const tab = current.getBoundingClientRect();
    if (tab.left < shown.left || tab.right > shown.right) tabs.scrollLeft += tab.left - shown.left - (shown.width - tab.width) / 2;
  }, [pathname]);
  return (
    <nav className="tabs" aria-label="Catalog sections" ref={nav} data-testid="catalog-tabs">
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
