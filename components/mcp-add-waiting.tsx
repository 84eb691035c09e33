import { openingMessage } from "@/lib/sources/mcp/opening";

/**
 * While a server is being added: what its first start waits for, and for how long at most (it is
 * listed once it answered, or failed).
 */
export function McpAddWaiting({
  name,
  transport,
  command,
  connectTimeoutMs,
}: {
  name: string;
  transport: "stdio" | "http";
  command: string;
  connectTimeoutMs: number;
}) {
  return (
    <p className="muted small" role="status" style={{ margin: 0 }} data-testid="mcp-add-waiting">
      {openingMessage(transport === "stdio" ? { name, transport, command } : { name, transport }, connectTimeoutMs)}
    </p>
  );
}
