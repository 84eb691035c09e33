import "server-only";

/** What a secret is replaced with wherever it would be shown. */
export const SECRET_MASK = "********";

/**
 * The shortest secret that is masked: 3 characters in plain text, 3 bytes in its encodings.
 * Masking 1- or 2-character values would shred every message (each "a", "1" or "ok" in it), and
 * their encoded forms would be 2-3 characters matching all over ordinary text; a value that
 * short is not a secret anyone relies on. A 3-character value is short enough to be guessed but
 * still one people use (a PIN, a test token), so it is masked in every form.
 */
const MIN_SECRET_LENGTH = 3;

/**
 * Base64 of `bytes` as it appears inside a longer base64 stream where it starts `offset` bytes
 * into a 3-byte group: only the characters that depend on `bytes` alone (the ones shared with
 * the neighbouring bytes differ from stream to stream and are left out), without padding.
 */
function base64Inside(bytes: Buffer, offset: 0 | 1 | 2): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
    .toString("base64")
    .replace(/=+$/, "");
  const leading = [0, 2, 3][offset];
  const trailing = (offset + bytes.length) % 3 === 0 ? 0 : 1;
  return encoded.slice(leading, encoded.length - trailing);
}

function urlSafe(base64: string): string {
  return base64.replace(/\+/g, "-").replace(/\//g, "_");
}

/** Percent-encoding with lower-case hex digits, as some encoders write it. */
const lowerPercent = (encoded: string) => encoded.replace(/%[0-9A-F]{2}/g, (percentEscape) => percentEscape.toLowerCase());

/**
 * Every form in which `value` may show up in a message: plain, JSON-escaped, base64 (standard
 * and URL-safe, at each offset within a longer stream, so `Basic base64(user:password)` is
 * caught), hex (lower and upper case), URL-encoded (encodeURIComponent, form encoding with `+`,
 * lower-case escapes). Longest first, so a longer form is masked whole before a shorter one
 * could mask part of it.
 */
export function secretForms(value: string): string[] {
  if (value.length < MIN_SECRET_LENGTH) return [];
  const forms = new Set<string>([value, JSON.stringify(value).slice(1, -1)]);
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length >= MIN_SECRET_LENGTH) {
    for (const offset of [0, 1, 2] as const) {
      const base64 = base64Inside(bytes, offset);
      forms.add(base64).add(urlSafe(base64));
    }
    const hex = bytes.toString("hex");
    forms.add(hex).add(hex.toUpperCase());
    const component = encodeURIComponent(value);
    const form = new URLSearchParams([["", value]]).toString().slice(1);
    for (const encoded of [component, component.replace(/%20/g, "+"), form]) forms.add(encoded).add(lowerPercent(encoded));
  }
  return [...forms].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}

/**
 * `text` with every secret value masked in every form `secretForms` lists. For text about to be
 * stored or shown (an MCP server's stderr, an upstream error), never for the secrets themselves.
 */
export function scrubSecrets(text: string, values: Iterable<string>): string {
  return secretMasker(values)(text);
}

/** `scrubSecrets` for many texts with the same secrets (every string of a tool's result): their forms are worked out once. */
export function secretMasker(values: Iterable<string>): (text: string) => string {
  const forms = [...new Set([...values].flatMap(secretForms))].sort((a, b) => b.length - a.length);
  return (text) => {
    let scrubbed = text;
    for (const form of forms) scrubbed = scrubbed.replaceAll(form, SECRET_MASK);
    return scrubbed;
  };
}

/** The longest form `secretForms` gives for any of `values`: how much text one occurrence may span. */
export function longestSecretForm(values: Iterable<string>): number {
  return Math.max(0, ...[...values].flatMap(secretForms).map((form) => form.length));
}

/**
 * Secrets of the Toolshed process itself (API keys, its secret key, passwords), by the names of
 * its environment variables: masked too in whatever an upstream may send back. Only values of 8
 * characters or more: real keys are long, and a short value under such a name (a limit, a flag)
 * is not a secret worth shredding messages for.
 */
export function hostSecretValues(env: Record<string, string | undefined> = process.env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value !== undefined && value.length >= 8 && /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i.test(name))
    .map(([, value]) => value as string);
}

/**
 * A JSON-like value (an upstream's result, structured content, `_meta`) with `scrub` applied to
 * every string in it, object keys included: a server may put what it was sent anywhere.
 */
export function scrubJson<T>(value: T, scrub: (text: string) => string): T {
  if (typeof value === "string") return scrub(value) as T;
  if (Array.isArray(value)) return value.map((item) => scrubJson(item, scrub)) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [scrub(key), scrubJson(item, scrub)])) as T;
}
