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
  const final = tools.map((tool) => derivedFromFrozen(finalOf, tool, toFinal));
  const changed: ToolNote[] = [];
  for (let index = 0; index < final.length; index++) {
    const [before, after] = [tools[index], final[index]];
    if (after.description !== before.description || after.summary !== before.summary || after.inputSchema !== before.inputSchema) {
      changed.push({ name: after.name, reason: "hidden characters or HTML comments taken out of its text (the stored text keeps them: see its findings)" });
    }
  }
  return { tools: final, removed: [], changed };
}
