import { pageUser } from "@/app/_services/access";
import { CONNECTION_FAILURES, type ConnectionFailure, connectionsOf } from "@/app/_services/mcp-connections";
import { McpConnections } from "@/components/mcp-connections";
import { getDb } from "@/db/client";

export const dynamic = "force-dynamic";
export const metadata = { title: "Connections" };

/** The signed-in person's own accounts at MCP servers that take each person's credential. */
export default async function ConnectionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await pageUser();
  const query = await searchParams;
  const one = (name: string) => (typeof query[name] === "string" ? query[name] : undefined);
  const failed = one("failed");
  const failure = failed && Object.hasOwn(CONNECTION_FAILURES, failed) ? CONNECTION_FAILURES[failed as ConnectionFailure] : undefined;
  return (
    <main className="page stack">
      <h1>Connections</h1>
      <p className="muted">
        Some MCP servers are called with each person&apos;s own account: your calls of their tools, through a catalog&apos;s gateway or its playground, use
        yours, and nobody else&apos;s. Connect once; what you enter is stored encrypted and never shown again.
      </p>
      {failure && (
        <p className="badge off" role="alert" data-testid="connection-failed">
          {failure}
        </p>
      )}
      <McpConnections
        connections={await connectionsOf(getDb(), user)}
        focus={one("catalog") && one("server") ? `${one("catalog")}/${one("server")}` : undefined}
      />
    </main>
  );
}
