import "server-only";
import type { McpServerView } from "@/db/queries/mcp-servers";
import type { Access } from "@/lib/auth/policy";
import { withOpeningStatus } from "./sources";

const DETAILS_FOR_ADMINS = "The server reported an error; team admins can see the details.";

/**
 * A server of the catalog as `access` may see it, "starting" while this instance connects it. Its
 * last error can quote its stderr or an upstream answer: admins see it (scrubbed of the stored
 * secrets), viewers and editors only that there was one.
 */
export function mcpServerViewFor(catalogId: string, stored: McpServerView, access: Access): McpServerView {
  const view = withOpeningStatus(catalogId, stored);
  if (access === "admin" || view.lastError === null) return view;
  return { ...view, lastError: DETAILS_FOR_ADMINS };
}
