import "server-only";
import type { McpHealthChange } from "@/db/queries/mcp-health";
import type { McpServerView } from "@/db/queries/mcp-servers";
import type { Access } from "@/lib/auth/policy";
import { withOpeningStatus } from "./sources";

const DETAILS_FOR_ADMINS = "The server reported an error; team admins can see the details.";

/**
 * A server of the catalog as `access` may see it, "starting" while this instance connects it. Its
 * last error can quote its stderr or an upstream answer: admins see it (scrubbed of the stored
 * secrets), viewers and editors only that there was one; the same for the causes in its health history.
 */
export function mcpServerViewFor(catalogId: string, stored: McpServerView, access: Access): McpServerView {
  const view = withOpeningStatus(catalogId, stored);
  if (access === "admin") return view;
  return { ...view, lastError: view.lastError === null ? null : DETAILS_FOR_ADMINS, health: mcpHealthFor(view.health, access) };
}

/**
 * A server's health history as `access` may see it: what a connection waits for ("starting", as
 * the server's view shows everyone) for all; the other causes, which quote the server's errors, for admins.
 */
export function mcpHealthFor(changes: McpHealthChange[], access: Access): McpHealthChange[] {
  if (access === "admin") return changes;
  return changes.map((change) => (change.state === "starting" || change.cause === null ? change : { ...change, cause: DETAILS_FOR_ADMINS }));
}
