import "server-only";
export { adaptMcpTools, type McpToolDraft, type McpToolProblem } from "./adapt";
export {
  McpSourceError,
  type McpCallOptions,
  type McpFailure,
  type McpProgress,
  type McpServerInfo,
  type McpServerListing,
  type McpToolResult,
} from "./client";
export {
  argumentValue,
  MCP_SERVER_NAME_PATTERN,
  McpHttpConfigSchema,
  McpServerConfigSchema,
  McpStdioConfigSchema,
  type McpArgument,
  type McpHttpConfig,
  type McpServerConfig,
  type McpStdioConfig,
} from "./config";
export {
  MCP_CALL_TIMEOUT_ENV,
  mcpCallTimeoutMs,
  mcpConnectTimeoutMs,
  McpConnections,
  type McpConnectionTimeouts,
} from "./connections";
export { registryNamesForServer } from "./names";
export { MCP_CONNECT_TIMEOUT_ENV, openingMessage } from "./opening";
export {
  DEFAULT_MCP_RESULT_MAX_CHARS,
  isMcpToolResult,
  limitMcpResult,
  MCP_RESULT_MAX_CHARS_ENV,
  mcpResultMaxChars,
  mcpResultSize,
  truncationNote,
} from "./result-limit";
export { addressClass, ALLOW_PRIVATE_ENV, allowsPrivateAddresses, BlockedAddressError, guardedFetch, hostRefusal } from "./network-policy";
export { instanceAdminPowerOf, mcpPolicyProblem } from "./policy";
export { hasSecrets, HIDDEN_SECRET, joinMcpSecrets, mcpSecretValues, redactMcpConfig, splitMcpSecrets, type McpConfigSecrets } from "./secrets";
export {
  allowedStdioCommands,
  DEFAULT_STDIO_COMMANDS,
  matchingStdioCommands,
  parseStdioCommands,
  STDIO_COMMANDS_ENV,
  StdioCommandsError,
  stdioPolicyProblem,
  type StdioCommandLine,
} from "./stdio-policy";
