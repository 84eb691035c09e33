import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local OpenTelemetry collector's stand-in for `bench:http -- --tracing`: it takes OTLP/HTTP
 * JSON exports at /v1/traces, as a collector's `otlp` receiver does, and counts the spans.
 */
export async function startOtlpReceiver(): Promise<{ endpoint: string; spans(): number; close(): Promise<void> }> {
  let spans = 0;
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      // Counted by their span ids: the export's JSON is read only as far as needed.
      if (request.url === "/v1/traces") spans += body.match(/"spanId":/g)?.length ?? 0;
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
