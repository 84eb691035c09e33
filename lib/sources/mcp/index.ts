export { adaptMcpTools, type McpToolDraft, type McpToolProblem } from "./adapt";
export {
  McpSourceError,
  type McpFailure,
  type McpServerInfo,
  type McpServerListing,
  type McpToolResult,
} from "./client";
export {
  HIDDEN_SECRET,
  MCP_SERVER_NAME_PATTERN,
  McpHttpConfigSchema,
  McpServerConfigSchema,
  McpStdioConfigSchema,
  redactMcpConfig,
  type McpHttpConfig,
  type McpServerConfig,
  type McpStdioConfig,
} from "./config";
export { McpConnections, type McpConnectionTimeouts } from "./connections";
export { registryNamesForServer } from "./names";
