import Link from "next/link";
import { setupLinkOpen } from "@/app/_services/bootstrap";
import { SetupForm } from "@/components/setup-form";
import { getDb } from "@/db/client";

export const metadata = { title: "Set up" };
export const dynamic = "force-dynamic";

export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  const open = await setupLinkOpen(getDb());
  return (
    <main className="page narrow">
      <h1>Set up Toolshed</h1>
      {open && token ? (
        <>
          <p className="sub">Create the first admin account. It joins the team &quot;default&quot;, which owns the demo catalog.</p>
          <SetupForm token={token} />
        </>
      ) : (
        <div className="panel" data-testid="setup-closed">
          {open ? "Open the setup link from the server's log: it carries a one-time token." : "Setup is done: this installation has accounts."}{" "}
          <Link href="/sign-in">Sign in</Link>
        </div>
      )}
    </main>
  );
}
