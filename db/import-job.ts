import "server-only";
import { checkImportSize, parseImport, type ImportedTool } from "@/lib/catalogs/exchange";
import { detectImport, type DetectedTools, type ImportFormat } from "@/lib/catalogs/import-formats";
import type { ImportProgress } from "@/lib/catalogs/import-job";
import type { ImportedField, ImportResult } from "@/lib/catalogs/import-plan";
import { ToolshedError } from "@/lib/errors";
import type { FieldError } from "@/lib/tools/validate";
import type { Db } from "./client";
import { getCatalog } from "./queries/catalogs";
import { importDrafts, planCatalogImport } from "./queries/tool-import";

/**
 * An import to run: the document as UTF-8 bytes or text of JSON (an HTTP body, a file: decoded
 * and parsed where the job runs), or already parsed.
 */
export interface ImportJobInput {
  catalogId: string;
  actor: string;
  bytes?: Uint8Array;
  text?: string;
  document?: unknown;
}

/** How often (in tools) validation reports progress. */
const PROGRESS_EVERY = 250;

function readDocument(input: ImportJobInput): unknown {
  // Like request.text(): invalid sequences become U+FFFD and a byte-order mark is dropped.
  const text = input.bytes ? new TextDecoder().decode(input.bytes) : input.text;
  if (text === undefined) return input.document;
  if (!text.trim()) throw new ToolshedError("bad_request", "The request body is empty; JSON was expected.");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ToolshedError("bad_request", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** parseImport's problems for a one-tool document, moved to the tool's place in the whole one. */
function relocated(problems: FieldError[], index: number): FieldError[] {
  return problems.map((problem) => ({ ...problem, field: problem.field.replace(/^tools\.0(?=\.|$)/, `tools.${index}`) }));
}

/** The valid tools of a document with their places in its tools list, and every problem of the others. */
interface CheckedImport {
  tools: ImportedTool[];
  indexes: number[];
  problems: FieldError[];
  /** The document's tools list as parseImport reads it (a foreign format's tools converted). */
  raw: unknown[];
  format: ImportFormat;
  notes: string[];
}

/** The import's reading of a file: its tools in a form parseImport reads. An MCP client configuration is not a tools import. */
function detectTools(document: unknown): DetectedTools {
  const detected = detectImport(document);
  if (detected.kind === "servers") {
    throw new ToolshedError(
      "bad_request",
      `This is an MCP client configuration (its servers are in "${detected.at}"): an import adds its servers when the file is at most ${MCP_CONFIG_MAX_BYTES / 1024} KiB.`,
    );
  }
  return detected;
}

/** The bytes beyond which a file is not read as an MCP client configuration (those hold a few servers, not megabytes). */
export const MCP_CONFIG_MAX_BYTES = 256 * 1024;

/** The problems of one tool: those of reading its format, else parseImport's, each by the file's field. */
function toolProblems(detected: DetectedTools, raw: unknown, index: number, formatProblems: FieldError[]): { valid?: ImportedTool; problems: FieldError[] } {
  if (formatProblems.length > 0) return { problems: formatProblems };
  try {
    return { valid: parseImport({ ...detected.document, tools: [raw] })[0], problems: [] };
  } catch (error) {
    if (!(error instanceof ToolshedError) || !error.problems) throw error;
    return { problems: relocated(error.problems, index).map((problem) => ({ ...problem, field: detected.fieldInFile(problem.field) })) };
  }
}

/** The format's problems by the index of their tool. */
function problemsByTool(problems: FieldError[]): Map<number, FieldError[]> {
  const byIndex = new Map<number, FieldError[]>();
  for (const problem of problems) {
    const index = Number(/^tools\.(\d+)/.exec(problem.field)?.[1]);
    byIndex.set(index, [...(byIndex.get(index) ?? []), problem]);
  }
  return byIndex;
}

/**
 * parseImport, tool by tool, so that progress can be reported and each problem stays with its
 * tool: the same checks, problems and fields. The file's format is detected first (see
 * lib/catalogs/import-formats.ts) and its tools read as Toolshed's; a document that is wrong as a
 * whole (no tools list, an unknown format, too many tools) throws.
 */
function checkImport(document: unknown, report: (done: number, total: number) => void): CheckedImport {
  const detected = detectTools(document);
  const tools = detected.document.tools;
  if (!Array.isArray(tools)) return { tools: parseImport(detected.document), indexes: [], problems: [], raw: [], format: detected.format, notes: [] };
  checkImportSize(tools.length);
  // The document's own fields (format, version) once, then each tool in a document of its own.
  parseImport({ ...detected.document, tools: [] });
  const checked: CheckedImport = { tools: [], indexes: [], problems: [], raw: tools, format: detected.format, notes: detected.notes };
  const formatProblems = problemsByTool(detected.problems);
  const seen = new Map<string, number>();
  report(0, tools.length);
  tools.forEach((raw, index) => {
    const { valid, problems } = toolProblems(detected, raw, index, formatProblems.get(index) ?? []);
    checked.problems.push(...problems);
    const name = (raw as { name?: unknown } | null)?.name;
    const first = typeof name === "string" ? seen.get(name) : undefined;
    if (first !== undefined)
      checked.problems.push({ field: detected.fieldInFile(`tools.${index}.name`), message: `"${name}" appears twice (also at tools.${first}).` });
    else if (typeof name === "string") seen.set(name, index);
    if (valid && first === undefined) {
      checked.tools.push(valid);
      checked.indexes.push(index);
    }
    if ((index + 1) % PROGRESS_EVERY === 0) report(index + 1, tools.length);
  });
  return checked;
}

/** Every tool of the document checked, all collected before anything is written: one error listing every problem. */
export function validateImport(document: unknown, report: (done: number, total: number) => void = () => {}): ImportedTool[] {
  const { tools, problems } = checkImport(document, report);
  if (problems.length > 0) throw ToolshedError.fromFieldErrors(problems, "Import rejected");
  return tools;
}

/** A tool of the file: its name as written there (null when it has none) and its place in the file's tools list. */
export interface PreviewedTool {
  name: string | null;
  index: number;
}

/**
 * What an import of a document would do to the catalog at `revision`, tool by tool. While any tool
 * is `invalid` the import is refused whole; `skipped` ones are left alone by an import that runs.
 */
export interface ImportPreview {
  /** The format the file was read as, e.g. "OpenAI Chat Completions function tools". */
  format: ImportFormat;
  /** What the import leaves out of the file on purpose (fields a tool here has no place for). */
  notes: string[];
  revision: number;
  created: PreviewedTool[];
  updated: (PreviewedTool & { fields: ImportedField[] })[];
  unchanged: PreviewedTool[];
  skipped: (PreviewedTool & { reason: string })[];
  invalid: (PreviewedTool & { problems: FieldError[] })[];
}

/** The tools with problems, each once, in the file's order, with its problems. */
function invalidTools(checked: CheckedImport): ImportPreview["invalid"] {
  return [...problemsByTool(checked.problems)]
    .sort(([a], [b]) => a - b)
    .map(([index, problems]) => {
      const name = (checked.raw[index] as { name?: unknown } | null)?.name;
      return { name: typeof name === "string" ? name : null, index, problems };
    });
}

/**
 * A dry run: the same reading, checks and plan as runImportJob, written nowhere. Each valid tool
 * is placed where the import would put it against the catalog as it is now; the ones with problems
 * are listed with them instead of failing the run.
 */
export async function previewImportJob(db: Db, input: ImportJobInput, report: (progress: ImportProgress) => void = () => {}): Promise<ImportPreview> {
  report({ done: 0, total: 0, phase: "reading" });
  const checked = checkImport(readDocument(input), (done, total) => report({ done, total, phase: "validating" }));
  const { revision } = await getCatalog(db, input.catalogId);
  const plan = await planCatalogImport(db, input.catalogId, checked.tools);
  const placeOf = new Map(checked.tools.map((tool, position) => [tool.name, checked.indexes[position]]));
  const placed = (name: string): PreviewedTool => ({ name, index: placeOf.get(name)! });
  return {
    format: checked.format,
    notes: checked.notes,
    revision,
    created: plan.result.created.map(placed),
    updated: plan.result.updated.map((name) => ({ ...placed(name), fields: plan.changedFields.get(name)! })),
    unchanged: plan.result.unchanged.map(placed),
    skipped: plan.result.skipped.map(({ name, reason }) => ({ ...placed(name), reason })),
    invalid: invalidTools(checked),
  };
}

/**
 * One import from document to database: read, validate every tool, then write them all in one
 * immediate transaction (db/queries/tool-import.ts), so a failure anywhere writes nothing. Runs
 * in the import worker (db/import-worker.ts), or inline for an in-memory database.
 */
export async function runImportJob(db: Db, input: ImportJobInput, report: (progress: ImportProgress) => void = () => {}): Promise<ImportResult> {
  report({ done: 0, total: 0, phase: "reading" });
  const document = readDocument(input);
  const drafts = validateImport(document, (done, total) => report({ done, total, phase: "validating" }));
  report({ done: drafts.length, total: drafts.length, phase: "writing" });
  return importDrafts(db, input.catalogId, drafts, input.actor);
}
