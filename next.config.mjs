/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Imports of whole catalogs go through a server action; the import itself caps what it accepts.
  experimental: { serverActions: { bodySizeLimit: "64mb" }, proxyClientMaxBodySize: "64mb" },
};

export default nextConfig;
