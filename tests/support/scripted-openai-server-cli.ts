/**
 * Runs the scripted OpenAI-compatible server for end-to-end tests:
 *   PORT=4010 npx tsx tests/support/scripted-openai-server-cli.ts script.json
 * The script file holds a list of replies or a ScriptDefinition. Prints the base URL when ready.
 */
import { readFileSync } from "node:fs";
import { startScriptedOpenAIServer, type Script } from "./scripted-openai-server";

const scriptPath = process.argv[2];
if (!scriptPath) {
  console.error("Usage: PORT=<port> tsx tests/support/scripted-openai-server-cli.ts <script.json>");
  process.exit(2);
}

const script = JSON.parse(readFileSync(scriptPath, "utf8")) as Script;
const port = process.env.PORT ? Number(process.env.PORT) : 0;
if (!Number.isInteger(port) || port < 0) {
  console.error(`PORT="${process.env.PORT}" is not a port number.`);
  process.exit(2);
}

const server = await startScriptedOpenAIServer(script, { port });
console.log(server.url);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
