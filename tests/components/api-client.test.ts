import { afterEach, describe, expect, it, vi } from "vitest";
import { getJson, postJson } from "@/components/api-client";

function answer(response: Response | Error) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => {
      if (response instanceof Error) throw response;
      return response;
    }),
  );
}

describe("the pages' API reads", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("pass on the API's own error message", async () => {
    answer(Response.json({ error: { code: "not_found", message: 'There is no tool named "x".' } }, { status: 404 }));
    await expect(getJson("/api/x")).rejects.toThrow('There is no tool named "x".');
  });

  it("say in plain words when the server answered with something that is not the API's JSON", async () => {
    answer(new Response("<html>Internal Server Error</html>", { status: 500, statusText: "Internal Server Error" }));
    await expect(getJson("/api/x")).rejects.toThrow("The server failed to answer (500 Internal Server Error).");
  });

  it("say in plain words when the server could not be reached", async () => {
    answer(new TypeError("Failed to fetch"));
    await expect(postJson("/api/x", {})).rejects.toThrow("The server could not be reached");
  });

  it("let an abort through as it is", async () => {
    answer(new DOMException("The operation was aborted.", "AbortError"));
    await expect(getJson("/api/x")).rejects.toMatchObject({ name: "AbortError" });
  });
});
