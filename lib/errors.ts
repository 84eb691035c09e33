import type { FieldError } from "./tools/validate";

export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "too_large"
  | "rate_limited"
  | "upstream_failed";

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  upstream_failed: 502,
};

/** An error a person can act on: what is wrong, where, and the HTTP status it maps to. */
export class ToolshedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    /** Every problem when there is more than one (e.g. an import), each with its field. */
    readonly problems?: FieldError[],
    /** For 429: when the caller may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ToolshedError";
  }

  get status(): number {
    return STATUS[this.code];
  }

  toJSON() {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.field ? { field: this.field } : {}),
        ...(this.problems?.length ? { problems: this.problems } : {}),
      },
    };
  }

  toResponse(): Response {
    const headers: Record<string, string> = {};
    if (this.code === "unauthorized") headers["www-authenticate"] = 'Bearer realm="toolshed"';
    if (this.retryAfterSeconds !== undefined) headers["retry-after"] = String(this.retryAfterSeconds);
    return Response.json(this.toJSON(), { status: this.status, headers });
  }

  /** A validation failure: 413 when any problem is about size, 400 otherwise. */
  static fromFieldErrors(errors: FieldError[], summary = "Invalid input"): ToolshedError {
    const code = errors.some((e) => e.tooLarge) ? "too_large" : "bad_request";
    const first = errors[0];
    const message =
      errors.length === 1 ? `${first.message} (${first.field})` : `${summary}: ${errors.length} problems. First: ${first.message} (${first.field})`;
    return new ToolshedError(code, message, first.field, errors);
  }
}

export function notFound(what: string, field?: string): ToolshedError {
  return new ToolshedError("not_found", `${what} not found.`, field);
}
