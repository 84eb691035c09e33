/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Next's request tracing requires @opentelemetry/api and takes its traced path on every request
  // unless the global provider's class is named NoopTracerProvider; bundled, that class lost its
  // name (a hot route paid 0.5–1 ms per request with tracing off). Required from node_modules, it keeps it.
  // gpt-tokenizer's 2.4 MB of ranks were bundled into every route's server chunk (2.9 → 0.9 MB each
  // without them), and each route loaded kept its own copy of that source text; required, once.
  serverExternalPackages: ["@opentelemetry/api", "gpt-tokenizer"],
  // Imports of whole catalogs go through a server action; the import itself caps what it accepts.
  experimental: { serverActions: { bodySizeLimit: "64mb" }, proxyClientMaxBodySize: "64mb" },
  // OAuth discovery (issue 27): the app router serves no folder whose name starts with a dot, so the
  // well-known addresses MCP clients ask for are rewritten to routes under /api/oauth.
  async rewrites() {
    return [
      { source: "/.well-known/oauth-protected-resource/api/catalogs/:catalog/mcp", destination: "/api/oauth/protected-resource/:catalog" },
      { source: "/.well-known/oauth-authorization-server", destination: "/api/oauth/authorization-server" },
      { source: "/.well-known/oauth-authorization-server/api/auth", destination: "/api/oauth/authorization-server" },
    ];
  },
};

export default nextConfig;
