import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import ApiReferencePage from "@/app/api-reference/page";
import { openApiDocument } from "@/lib/openapi";

describe("the API reference page", () => {
  const html = renderToStaticMarkup(ApiReferencePage());

  it("has a heading for every path and every operation's summary", () => {
    const document = openApiDocument();
    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, { summary: string }>>)) {
      expect(html).toMatch(new RegExp(`<h3 id="path-[^"]+"[^>]*><code>${path.replace(/[{}]/g, "\\$&")}</code></h3>`));
      for (const operation of Object.values(operations)) expect(html).toContain(operation.summary.replace(/&/g, "&amp;").replace(/'/g, "&#x27;"));
    }
  });

  it("lists parameters, request bodies and answers in tables with column headers, and every schema they name", () => {
    expect(html).toContain('<th scope="col">Name</th><th scope="col">In</th>');
    expect(html).toContain("<code>changedSince</code></td><td>query</td>");
    expect(html).toContain('Request body (application/json): <a href="#schema-PreselectBody">PreselectBody</a>');
    expect(html).toContain('<td>200</td><td><a href="#schema-Preselection">Preselection</a>');
    expect(html).toContain('id="schema-Preselection"');
    expect(html).toContain("<code>toolSet</code>");
  });
});
