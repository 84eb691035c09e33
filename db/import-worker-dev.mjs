// The import worker when the code runs unbundled (vitest, tsx scripts): Node 20 cannot load
// TypeScript by itself, so tsx is registered in the worker first. In `next dev` and `next start`
// the bundler builds db/import-worker.ts into a worker chunk and this file is not used.
import { register } from "tsx/esm/api";

register();
await import("./import-worker.ts");
