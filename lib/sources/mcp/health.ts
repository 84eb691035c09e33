/**
 * The states an MCP server's health history records (db/queries/mcp-health.ts): its connection
 * being opened, connected, connected with tools held back until an editor reviews their
 * definition, or failing. Plain data: the API's schemas and the Sources page read it too.
 */
export const MCP_HEALTH_STATES = ["starting", "connected", "held-back", "failing"] as const;

export type McpHealthState = (typeof MCP_HEALTH_STATES)[number];
