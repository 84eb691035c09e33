import type { ErrorCode } from "../errors";
import type { FieldError } from "../tools/validate";

/** What an import job (db/import-job.ts) reports and its row in import_jobs keeps: plain types, so the schema needs no query module. */

export interface ImportProgress {
  /** Tools validated so far (all of them once the job writes). */
  done: number;
  /** Tools in the document; 0 until it is read. */
  total: number;
  phase: "reading" | "validating" | "writing";
}

/** Why a job failed, in the API's error shape: what failed, and every problem with its field. */
export interface ImportJobError {
  code: ErrorCode | "internal";
  message: string;
  field?: string;
  problems?: FieldError[];
}
