"use client";

import { createContext, useContext } from "react";
import type { Access } from "@/lib/auth/policy";

const RANK: Record<Access, number> = { read: 1, write: 2, admin: 3 };

const CatalogAccessContext = createContext<Access>("read");

/** What the signed-in person may do in the catalog on screen: pages hide what they may not. */
export function CatalogAccessProvider({ access, children }: { access: Access; children: React.ReactNode }) {
  return <CatalogAccessContext.Provider value={access}>{children}</CatalogAccessContext.Provider>;
}

/** True when the person's role in this catalog's team grants `need` (editors `write`, admins `admin`). */
export function useCan(need: Access): boolean {
  return RANK[useContext(CatalogAccessContext)] >= RANK[need];
}
