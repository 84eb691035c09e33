/**
 * A server writes an HTTP response's headers with the first chunk of its body (Next's does), so an
 * event stream with nothing to say yet leaves its client waiting even for its status: the MCP
 * gateway's GET stream, until a server message or the SDK's keep-alive 15 s later, and a POST's
 * stream until its answer. An SSE comment as the first chunk sends them at once; clients ignore it.
 */
const OPENING = new TextEncoder().encode(": stream open\n\n");

/**
 * The response, its event stream (if it is one) opened by an SSE comment; anything else as it is.
 * `closesConnection` (the GET stream, which holds its connection as long as the session lasts):
 * the connection closes when the stream ends, rather than idling on until its keep-alive timeout,
 * which would hold up a server that is stopping (it waits for every connection) by that long.
 */
export function withOpenedEventStream(response: Response, { closesConnection = false } = {}): Response {
  const body = response.body;
  if (body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
  const reader = body.getReader();
  const opened = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(OPENING);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    // A client that leaves cancels the stream underneath: the transport forgets it.
    cancel: (reason) => reader.cancel(reason),
  });
  const headers = new Headers(response.headers);
  if (closesConnection) headers.set("connection", "close");
  return new Response(opened, { status: response.status, statusText: response.statusText, headers });
}
