import { z } from "zod";
import { ToolshedError } from "./errors";

export const DEFAULT_BODY_LIMIT = 256 * 1024;

/** Reads a JSON body, refusing oversized (413) and malformed (400) ones before parsing further. */
export async function readJsonBody(request: Request, maxBytes = DEFAULT_BODY_LIMIT): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(declared, maxBytes);
  const text = await request.text();
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) throw tooLarge(bytes, maxBytes);
  if (!text.trim()) throw new ToolshedError("bad_request", "The request body is empty; JSON was expected.");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ToolshedError("bad_request", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

function tooLarge(bytes: number, maxBytes: number): ToolshedError {
  return new ToolshedError("too_large", `The request body is ${bytes} bytes; the limit is ${maxBytes}.`);
}

/** Parses with a zod schema, turning the first issue into an error that names its field. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => ({
    field: issue.path.join(".") || "body",
    message: issue.message,
  }));
  throw ToolshedError.fromFieldErrors(problems, "Invalid request");
}

/** Wraps a route handler: typed errors become their JSON response, anything else a logged 500. */
export function handle<A extends unknown[]>(handler: (...args: A) => Promise<Response> | Response) {
  return async (...args: A): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof ToolshedError) return error.toResponse();
      console.error(error);
      return Response.json({ error: { code: "internal", message: "Internal error: the server log has details." } }, { status: 500 });
    }
  };
}
