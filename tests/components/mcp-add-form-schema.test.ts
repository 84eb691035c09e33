import { zodResolver } from "@hookform/resolvers/zod";
import { describe, expect, it } from "vitest";
import { blankMcpAddForm, formProblems, type McpAddFormValues, mcpAddFormSchema } from "@/components/mcp-add-form-schema";

const form = (values: Partial<McpAddFormValues>): McpAddFormValues => ({ ...blankMcpAddForm("stdio"), ...values });

/** What the form's resolver answers, as the form shows it: criteriaMode "all" keeps every message of a field. */
async function resolve(values: McpAddFormValues) {
  const result = await zodResolver(mcpAddFormSchema)(values, undefined, { criteriaMode: "all", fields: {}, shouldUseNativeValidation: false });
  return { values: result.values, problems: formProblems(result.errors) };
}

describe("the add-MCP-server form's schema", () => {
  it("turns a stdio draft into the body the server checks: trimmed, secret arguments after the others, env lines as a record", () => {
    const body = mcpAddFormSchema.parse(
      form({
        name: " notes ",
        command: " node ",
        args: "server.mjs\n\n  --verbose \n",
        secretArgs: "--api-key=abc\n",
        env: "API_TOKEN = t=1\n\nMODE=dev",
        url: "https://ignored.example/mcp",
        headers: "not a header line",
      }),
    );
    expect(body).toEqual({
      name: "notes",
      transport: "stdio",
      command: "node",
      args: ["server.mjs", "--verbose", { value: "--api-key=abc", secret: true }],
      env: { API_TOKEN: "t=1", MODE: "dev" },
    });
  });

  it("leaves out empty lists, so the server's optional fields stay absent", () => {
    expect(mcpAddFormSchema.parse(form({ name: "a", command: "node", args: " \n", env: "\n" }))).toStrictEqual({
      name: "a",
      transport: "stdio",
      command: "node",
    });
    expect(mcpAddFormSchema.parse(form({ name: "b", transport: "http", url: "https://x.example/mcp" }))).toStrictEqual({
      name: "b",
      transport: "http",
      url: "https://x.example/mcp",
    });
  });

  it("writes mediumFindings only when the admin chose auto (review is the server's default)", () => {
    expect(mcpAddFormSchema.parse(form({ name: "a", command: "node", mediumFindings: "auto" }))).toStrictEqual({
      name: "a",
      mediumFindings: "auto",
      transport: "stdio",
      command: "node",
    });
    expect(mcpAddFormSchema.parse(form({ name: "a", command: "node" }))).not.toHaveProperty("mediumFindings");
  });

  it("turns an HTTP draft's header lines into a record, and ignores the stdio fields", () => {
    const body = mcpAddFormSchema.parse(
      form({ name: "remote", transport: "http", url: " https://x.example/mcp ", headers: "Authorization: Bearer a:b\nX-Team:  core", env: "BROKEN" }),
    );
    expect(body).toEqual({ name: "remote", transport: "http", url: "https://x.example/mcp", headers: { Authorization: "Bearer a:b", "X-Team": "core" } });
  });

  it("reports every malformed or repeated line under its field, each with its line number", async () => {
    const { values, problems } = await resolve(form({ name: "bad", command: "node", env: "NO_EQUALS_SIGN\nA=1\n=x\nA=2" }));
    expect(values).toEqual({});
    expect(problems).toEqual([
      { field: "env", message: "Line 1: write KEY=value." },
      { field: "env", message: "Line 3: write KEY=value." },
      { field: "env", message: 'Line 4: "A" is given twice.' },
    ]);
    const http = await resolve(form({ name: "bad", transport: "http", url: "https://x.example", headers: "Authorization Bearer x" }));
    expect(http.problems).toEqual([{ field: "headers", message: "Line 1: write Name: value." }]);
  });

  it("leaves the name, command and URL to the server, which checks them with its own schema", async () => {
    const { values, problems } = await resolve(form({ name: "Bad Name", command: "  " }));
    expect(problems).toEqual([]);
    expect(values).toEqual({ name: "Bad Name", transport: "stdio", command: "" });
  });
});
