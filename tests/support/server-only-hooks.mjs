/**
 * Module resolution hooks (node:module register) for a process that runs the route handlers
 * outside Next, as vitest does: "server-only" loads its no-op (vitest.config.ts aliases it so),
 * while React and Next load their ordinary builds, which React's server condition would replace.
 */
const NO_OP = new URL("../../node_modules/server-only/empty.js", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  return specifier === "server-only" ? { url: NO_OP, shortCircuit: true } : nextResolve(specifier, context);
}
