import type { Metadata } from "next";
import Link from "next/link";
import { currentUser } from "@/app/_services/access";
import { Providers } from "@/components/providers";
import { UserMenu } from "@/components/user-menu";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Toolshed", template: "%s · Toolshed" },
  description: "Registry, simulator and playground for the tool catalogs of LLM agents",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const user = await currentUser();
  return (
    <html lang="en">
      <body>
        <a href="#content" className="skip-link" data-testid="skip-link">
          Skip to content
        </a>
        <header className="topbar">
          <Link href="/" className="brand">
            <span className="brand-mark" aria-hidden /> Toolshed
          </Link>
          <nav>
            <Link href="/">Catalogs</Link>
            <Link href="/connections">Connections</Link>
            <Link href="/settings">Settings</Link>
            <Link href="/api-reference">API</Link>
          </nav>
          <span className="spacer" />
          <UserMenu email={user?.email} />
        </header>
        {/* The skip link's target: focusable so that the next Tab starts inside the page's content. */}
        <div id="content" tabIndex={-1}>
          <Providers>{children}</Providers>
        </div>
      </body>
    </html>
  );
}
