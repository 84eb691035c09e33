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
