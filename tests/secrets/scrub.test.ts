import { describe, expect, it } from "vitest";
import { hostSecretValues, scrubSecrets, SECRET_MASK, secretForms } from "@/lib/secrets";

const b64 = (text: string) => Buffer.from(text).toString("base64");
const b64url = (text: string) => Buffer.from(text).toString("base64url");
const hex = (text: string) => Buffer.from(text).toString("hex");

/** Every way `value` might be written into a message, each inside some surrounding text. */
function encodings(value: string): Record<string, string> {
  return {
    plain: `token=${value};`,
    base64: `b64 ${b64(value)} end`,
    "base64 url-safe": `b64url ${b64url(value)} end`,
    "base64 at offset 1": `Basic ${b64(`x${value}`)}`,
    "base64 at offset 2": `Basic ${b64(`xy${value}`)}`,
    "base64 after user:": `Authorization: Basic ${b64(`admin:${value}`)}`,
    "base64 url-safe at offset 2": `jwt ${b64url(`{"${value}"}`)}`,
    "hex lower": `hex ${hex(value)}`,
    "hex upper": `HEX ${hex(value).toUpperCase()}`,
    encodeURIComponent: `?q=${encodeURIComponent(value)}&x=1`,
    "form encoding": `body: a=1&b=${new URLSearchParams([["", value]]).toString().slice(1)}`,
    "plus for space": `?q=${encodeURIComponent(value).replace(/%20/g, "+")}`,
    "lower-case escapes": `?q=${encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (percentEscape) => percentEscape.toLowerCase())}`,
    "JSON-escaped": JSON.stringify({ error: `bad ${value}` }),
  };
}

/** What is left of `value` that could identify it: every form of it, and of its base64 at each offset, is gone. */
function expectGone(scrubbed: string, value: string) {
  for (const form of secretForms(value)) expect(scrubbed).not.toContain(form);
}

describe("scrubSecrets", () => {
  it.each(["s3cret-token-value", "pa ss/wo+rd?&=é", "abc", "xyz", "tok-123456", 'quote"back\\slash'])("masks %j in every encoding", (value) => {
    for (const [name, text] of Object.entries(encodings(value))) {
      const scrubbed = scrubSecrets(text, [value]);
      expect(scrubbed, name).toContain(SECRET_MASK);
      expectGone(scrubbed, value);
    }
  });

  it("masks a 3-character value, but not 1- or 2-character ones (they would shred every message)", () => {
    expect(scrubSecrets("pin 123 and 12 and 1", ["123", "12", "1"])).toBe(`pin ${SECRET_MASK} and 12 and 1`);
    expect(scrubSecrets(`basic ${b64("123")}`, ["123"])).toBe(`basic ${SECRET_MASK}`);
    expect(scrubSecrets(`hex ${hex("123")}`, ["123"])).toBe(`hex ${SECRET_MASK}`);
    expect(secretForms("ab")).toEqual([]);
  });

  it("masks the longest form whole before a shorter one could split it, and leaves other text alone", () => {
    const value = "tok en";
    const text = `a ${encodeURIComponent(value)} b ${value} c nothing secret here`;
    expect(scrubSecrets(text, [value])).toBe(`a ${SECRET_MASK} b ${SECRET_MASK} c nothing secret here`);
    expect(scrubSecrets("no secrets", [])).toBe("no secrets");
  });

  it("masks several values at once", () => {
    const scrubbed = scrubSecrets(`one=${b64("first-secret")} two=${hex("second-secret")}`, ["first-secret", "second-secret"]);
    expect(scrubbed).toBe(`one=${SECRET_MASK} two=${SECRET_MASK}`);
  });

  it("lists the host's own secrets by their variable names, long values only", () => {
    const values = hostSecretValues({
      OPENAI_API_KEY: "sk-very-secret",
      TOOLSHED_SECRET_KEY: "k".repeat(44),
      MAX_TOKENS_X: "12",
      HOME: "/root",
      DB_PASSWORD: "hunter22",
    });
    expect(values.sort()).toEqual(["hunter22", "k".repeat(44), "sk-very-secret"]);
  });
});
