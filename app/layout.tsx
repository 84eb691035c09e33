import type { Metadata } from "next";
import Link from "next/link";
import { Providers } from "@/components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Toolshed", template: "%s · Toolshed" },
  description: "Registry, simulator and playground for the tool catalogs of LLM agents",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <Link href="/" className="brand">
            <span className="brand-mark" aria-hidden /> Toolshed
          </Link>
          <nav>
            <Link href="/">Catalogs</Link>
            <Link href="/settings">Settings</Link>
          </nav>
          <span className="spacer" />
          <a href="/api/catalogs" className="small">API</a>
        </header>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
