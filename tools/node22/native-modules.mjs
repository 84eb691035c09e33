/**
 * Module resolution hook for the unit suite on Node 22 (scripts/test-node22.sh loads it with --import in every
 * process): a native module resolved in the app's node_modules, which is compiled for the Node on PATH, loads
 * from this folder's copy, compiled for Node 22, instead. Everything else resolves as usual.
 */
import { registerHooks } from "node:module";

const NATIVE = ["better-sqlite3"];
const APP_MODULES = new URL("../../node_modules/", import.meta.url).href;
const NODE22_MODULES = new URL("./node_modules/", import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const native = NATIVE.find((name) => resolved.url.startsWith(`${APP_MODULES}${name}/`));
    return native ? { ...resolved, url: NODE22_MODULES + resolved.url.slice(APP_MODULES.length) } : resolved;
  },
});
