import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

/**
 * A local OpenTelemetry collector's stand-in for `bench:http -- --tracing`, in a process of its
 * own as a collector is (in the bench's process it would hold up the client that measures): it
 * takes OTLP/HTTP JSON exports at /v1/traces, as a collector's `otlp` receiver does, counts their
 * spans, and prints its port, then each new count, one line each.
 */
const RECEIVER = `
const server = require("node:http").createServer((request, response) => {
  let body = "";
  request.setEncoding("utf8");
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    if (request.url === "/v1/traces") spans += body.match(/"spanId":/g)?.length ?? 0;
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
    console.log(spans);
  });
});
let spans = 0;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

export async function startOtlpReceiver(): Promise<{ endpoint: string; spans(): number; close(): Promise<void> }> {
  const child = spawn(process.execPath, ["-e", RECEIVER], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const [port] = (await once(lines, "line")) as [string];
  let spans = 0;
  lines.on("line", (line) => (spans = Number(line)));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans: () => spans,
    close: async () => {
      child.kill();
      await once(child, "exit");
    },
  };
}
