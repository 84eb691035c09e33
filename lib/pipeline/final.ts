import { derivedFromFrozen } from "../tools/frozen";
import { withoutHiddenContent } from "../tools/poisoning";
import type { InputSchema } from "../tools/types";
import type { FinalTool, PipelineTool, StageResult, ToolNote } from "./types";

// A frozen tool (a cached catalog state's, see freezeCatalogState) always yields the same final
// definition, so it is made once and shared by every list that hands the tool over unchanged.
const finalOf = new WeakMap<PipelineTool, FinalTool>();

function toFinal(tool: PipelineTool): FinalTool {
  return {
    name: tool.name,
    summary: withoutHiddenContent(tool.summary),
    description: withoutHiddenContent(tool.description),
    inputSchema: schemaWithoutHiddenContent(tool.inputSchema),
    source: tool.source,
    tags: tool.tags,
    needsApproval: tool.needsApproval === true,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.argumentDefaults ? { argumentDefaults: tool.argumentDefaults } : {}),
  };
}

/** A JSON Schema node with hidden content removed from every description and title in it (values and names are left as they are: the server expects them); the same object when there is none. */
function withoutHiddenDescriptions(node: unknown): unknown {
  if (node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) {
    let items: unknown[] | undefined;
    for (let index = 0; index < node.length; index++) {
      const cleaned = withoutHiddenDescriptions(node[index]);
      if (cleaned === node[index]) continue;
      items ??= [...node];
      items[index] = cleaned;
    }
    return items ?? node;
  }
  const record = node as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key in record) {
    const value = record[key];
    const cleaned = (key === "description" || key === "title") && typeof value === "string" ? withoutHiddenContent(value) : withoutHiddenDescriptions(value);
    if (cleaned === value) continue;
    copy ??= { ...record };
    copy[key] = cleaned;
  }
  return copy ?? node;
}

const schemaWithoutHiddenContent = (schema: InputSchema) => withoutHiddenDescriptions(schema) as InputSchema;

/**
 * Stage 8: the definitions handed to the model, with what a person cannot see (invisible
 * characters, HTML comments: lib/tools/poisoning.ts) taken out of their text; the stored
 * definition keeps it for review. Every stage filters or maps in place, so the catalog's order
 * survives; keeping it stable keeps the provider's prompt cache warm.
 */
export function finalize(tools: PipelineTool[]): StageResult<FinalTool> {
  const final: FinalTool[] = [];
  const changed: ToolNote[] = [];
  for (const tool of tools) {
    const made = finalDefinition(tool);
    final.push(made.final);
    if (made.note !== undefined) changed.push(made.note);
  }
  return { tools: final, removed: [], changed };
}

const HIDDEN_CONTENT_REMOVED = "hidden characters or HTML comments taken out of its text (the stored text keeps them: see its findings)";

/** Stage 8 for one tool: its final definition, and what was taken out of it if anything. */
export function finalDefinition(tool: PipelineTool): { final: FinalTool; note?: ToolNote } {
  const final = derivedFromFrozen(finalOf, tool, toFinal);
  if (final.description !== tool.description || final.summary !== tool.summary || final.inputSchema !== tool.inputSchema) {
    return { final, note: { name: final.name, reason: HIDDEN_CONTENT_REMOVED } };
  }
  return { final };
}
