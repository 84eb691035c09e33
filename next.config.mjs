/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Imports of whole catalogs go through a server action; the import itself caps what it accepts.
  experimental: { serverActions: { bodySizeLimit: "20mb" } },
};

export default nextConfig;
