import { ToolshedError } from "@/lib/errors";

/** The ToolshedError that `work` throws (anything else is rethrown; throwing nothing fails). */
export function thrown(work: () => unknown): ToolshedError {
  try {
    work();
  } catch (error) {
    if (error instanceof ToolshedError) return error;
    throw error;
  }
  throw new Error("expected a ToolshedError");
}

/** The ToolshedError that `work` rejects with (anything else is rethrown; fulfilling fails). */
export async function rejection(work: Promise<unknown>): Promise<ToolshedError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ToolshedError) return error;
    throw error;
  }
  throw new Error("expected a ToolshedError");
}
