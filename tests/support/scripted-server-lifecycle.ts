import { afterEach } from "vitest";
import { startScriptedOpenAIServer, type Script, type ScriptedOpenAIServer } from "./scripted-openai-server";

/** Starts a scripted server per test and closes it after each one; kept apart so the CLI never imports vitest. */
export function useScriptedServer(): (script: Script) => Promise<ScriptedOpenAIServer> {
  let server: ScriptedOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (script) => {
    server = await startScriptedOpenAIServer(script);
    return server;
  };
}
