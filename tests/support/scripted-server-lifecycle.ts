import { afterEach } from "vitest";
import { startScriptedOpenAIServer, type Script, type ScriptedOpenAIServer } from "./scripted-openai-server";

type ServerOptions = Parameters<typeof startScriptedOpenAIServer>[1];

/** Starts a scripted server per test and closes it after each one; kept apart so the CLI never imports vitest. */
export function useScriptedServer(): (script: Script, options?: ServerOptions) => Promise<ScriptedOpenAIServer> {
  let server: ScriptedOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (script, options) => {
    server = await startScriptedOpenAIServer(script, options);
    return server;
  };
}
