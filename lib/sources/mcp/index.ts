import "server-only";
export {
  McpSourceError,
  type McpCallOptions,
  type McpProgress,
  type McpServerListing,
  type McpToolResult,
} from "./client";
export { BridgedConnections } from "./bridged-connections";
export { bridgedCapabilities, type CallingClient, declareWithoutClient } from "./client-capabilities";
export {
  McpServerConfigSchema,
  type McpServerConfig,
  type McpStdioConfig,
} from "./config";
export {
  mcpCallTimeoutMs,
  mcpConnectTimeoutMs,
  McpConnections,
  type McpConnectionTimeouts,
  type McpOfferChange,
  type McpRequestWork,
  type McpOpening,
} from "./connections";
export { getPromptOn, listOfferOn, type McpServerOffer, readResourceOn, subscribeOn } from "./federated";
export { MCP_CONNECT_TIMEOUT_ENV, openingMessage } from "./opening";
export {
  DEFAULT_MCP_RESULT_MAX_CHARS,
  limitMcpResult,
  mcpResultMaxChars,
  mcpResultSize,
} from "./result-limit";
export { allowsPrivateAddresses } from "./network-policy";
export { instanceAdminPowerOf, mcpPolicyProblem } from "./policy";
export { hasSecrets, joinMcpSecrets, mcpSecretValues, redactMcpConfig, splitMcpSecrets, type McpConfigSecrets } from "./secrets";
