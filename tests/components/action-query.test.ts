// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, renderHook } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { actionData, useActionQuery } from "@/components/action-query";
import { UNREACHABLE } from "@/components/api-client";
import type { ActionResult } from "@/lib/action-result";

const refusal = (message: string): ActionResult<never> => ({ ok: false, error: { code: "bad_request", message, field: "model", problems: [] } });

describe("a server action's data", () => {
  it("is the data it answered with", async () => {
    expect(await actionData(async () => ({ ok: true, data: { tools: 3 } }))).toEqual({ tools: 3 });
  });

  it("is an error with the action's message when it refused", async () => {
    await expect(actionData(async () => refusal("Name a model id, e.g. gpt-5. (model)"))).rejects.toThrow("Name a model id, e.g. gpt-5. (model)");
  });

  it("says in plain words that the server could not be reached when the request never got an answer", async () => {
    await expect(actionData(() => Promise.reject(new TypeError("Failed to fetch")))).rejects.toThrow(UNREACHABLE);
  });

  it("keeps what Next said of a server's failed answer", async () => {
    await expect(actionData(() => Promise.reject(new Error("Boom.")))).rejects.toThrow("Boom.");
  });
});

describe("a read through a server action", () => {
  afterEach(cleanup);

  /** One list per key; the key "broken" fails until `fixed`. */
  function renderRead(first: string) {
    const state = { fixed: false };
    const action = vi.fn(
      async (key: string): Promise<ActionResult<string>> => (key === "broken" && !state.fixed ? refusal("It broke.") : { ok: true, data: `list ${key}` }),
    );
    const client = new QueryClient();
    const hook = renderHook(({ key }: { key: string }) => useActionQuery(["list", key], () => action(key)), {
      initialProps: { key: first },
      wrapper: ({ children }) => createElement(QueryClientProvider, { client }, children),
    });
    return { ...hook, action, state };
  }

  it("keeps the last good answer on screen, not current, while the next key's is on its way and after it failed", async () => {
    const { result, rerender, state } = renderRead("a");
    await vi.waitFor(() => expect(result.current).toMatchObject({ shown: "list a", current: true }));

    rerender({ key: "broken" });
    expect(result.current).toMatchObject({ shown: "list a", current: false });
    await vi.waitFor(() => expect(result.current.query.error?.message).toBe("It broke."));
    expect(result.current).toMatchObject({ shown: "list a", current: false });

    state.fixed = true;
    await act(() => result.current.query.refetch());
    await vi.waitFor(() => expect(result.current).toMatchObject({ shown: "list broken", current: true }));
    expect(result.current.query.error).toBeNull();
  });

  it("asks nothing without an action", () => {
    const client = new QueryClient();
    const { result } = renderHook(() => useActionQuery(["nothing"], undefined), {
      wrapper: ({ children }) => createElement(QueryClientProvider, { client }, children),
    });
    expect(result.current).toMatchObject({ shown: undefined, current: false });
    expect(result.current.query.fetchStatus).toBe("idle");
  });
});
