import { readFile, stat } from "node:fs/promises";
import { FrontMatterError, parseFrontMatter, type FrontMatterValue, type ParsedFrontMatter } from "./front-matter";

/** A problem with one file of a source folder, reported beside the files that did load. */
export interface SourceLoadError {
  file: string;
  /** 1-based, when the problem is on one line of the file. */
  line?: number;
  message: string;
}

/** Thrown by the file parsers; `message` names the file and line, `detail` is the problem alone. */
export class SourceFileError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
    readonly line?: number,
  ) {
    super(`${file}${line === undefined ? "" : `:${line}`}: ${detail}`);
    this.name = "SourceFileError";
  }

  toLoadError(): SourceLoadError {
    return { file: this.file, ...(this.line === undefined ? {} : { line: this.line }), message: this.detail };
  }
}

/** Front matter of a source file, with syntax errors and unknown keys reported against the file. */
export function readFrontMatter(text: string, file: string, allowedKeys: readonly string[]): ParsedFrontMatter {
  let parsed: ParsedFrontMatter;
  try {
    parsed = parseFrontMatter(text);
  } catch (error) {
    if (error instanceof FrontMatterError) throw new SourceFileError(file, error.message, error.line);
    throw error;
  }
  for (const [key, value] of parsed.fields) {
    if (!allowedKeys.includes(key)) {
      throw new SourceFileError(file, `Unknown front-matter key "${key}"; expected ${allowedKeys.join(", ")}.`, value.line);
    }
  }
  return parsed;
}

/** A field that must be a single line of text; undefined when absent. */
export function scalarField(fields: Map<string, FrontMatterValue>, key: string, file: string): string | undefined {
  const value = fields.get(key);
  if (value === undefined) return undefined;
  if (value.kind !== "scalar") throw new SourceFileError(file, `"${key}" must be text, not a ${value.kind}.`, value.line);
  return value.value.trim();
}

/** Source files are meant to be read by people and models: anything larger is a mistake. */
export const SOURCE_FILE_MAX_BYTES = 256 * 1024;

export async function readSourceFile(file: string): Promise<string> {
  const { size } = await stat(file);
  if (size > SOURCE_FILE_MAX_BYTES) {
    throw new SourceFileError(file, `The file is ${size} bytes; the limit is ${SOURCE_FILE_MAX_BYTES}.`);
  }
  return readFile(file, "utf8");
}

/** Any failure while loading one file, as a load error for the report. */
export function toLoadError(error: unknown, file: string): SourceLoadError {
  if (error instanceof SourceFileError) return error.toLoadError();
  return { file, message: error instanceof Error ? error.message : String(error) };
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}
