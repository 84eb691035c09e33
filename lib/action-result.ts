import { ToolshedError } from "./errors";
import type { FieldError } from "./tools/validate";

/** What a server action hands back to its form: data, or an error that names its fields. */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string; field?: string; problems: FieldError[] } };

/** The data a server action answers with when it succeeds. */
export type ActionData<Action extends (...args: never[]) => Promise<ActionResult<unknown>>> = Extract<Awaited<ReturnType<Action>>, { ok: true }>["data"];

export async function runAction<T>(work: () => T | Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    if (error instanceof ToolshedError) {
      const problems = error.problems ?? (error.field ? [{ field: error.field, message: error.message }] : []);
      return { ok: false, error: { code: error.code, message: error.message, field: error.field, problems } };
    }
    console.error(error);
    return { ok: false, error: { code: "internal", message: "Something went wrong on the server.", problems: [] } };
  }
}
