import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FederationPreviewList } from "@/components/simulator-federation";

describe("the simulator's resources and prompts", () => {
  it("lists what each live server offers the agent, marking what its permissions deny and what is held back", () => {
    const html = renderToStaticMarkup(
      createElement(FederationPreviewList, {
        servers: [
          {
            server: "notes",
            status: "live",
            offer: {
              resources: [
                { name: "notes__readme", uri: "notes://readme", denied: false },
                { name: "notes__config", uri: "notes://config", denied: true },
              ],
              templates: [{ name: "notes__note", uriTemplate: "notes://notes/{id}", denied: false }],
              prompts: [
                { name: "notes__summarise", denied: true, heldBack: false },
                { name: "notes__later", denied: false, heldBack: true },
              ],
            },
          },
          { server: "docs", status: "not connected" },
        ],
      }),
    );
    expect(html).toContain("2 of 5 offered to this agent");
    const item = (name: string) => html.slice(html.indexOf(`sim-federation-item-${name}"`)).split("</li>")[0];
    expect(item("notes__readme")).not.toContain("denied");
    expect(item("notes__config")).toContain("denied by the agent&#x27;s permissions");
    expect(item("notes__summarise")).toContain("denied by the agent&#x27;s permissions");
    expect(item("notes__later")).toContain("held back");
    expect(item("notes__note")).toContain("notes://notes/{id}");
    expect(html).toContain("not connected on this instance");
  });

  it("says when the catalog has no MCP servers", () => {
    expect(renderToStaticMarkup(createElement(FederationPreviewList, { servers: [] }))).toContain("No MCP servers in this catalog.");
  });
});
