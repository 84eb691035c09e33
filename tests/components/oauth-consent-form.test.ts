// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OAuthConsentForm } from "@/components/oauth-consent-form";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function answering(response: Response | Error) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

describe("the consent page's answer", () => {
  it("allows with the signed query and the scopes the role allows, then goes where the server says", async () => {
    const fetch = answering(Response.json({ redirect: true, url: "http://127.0.0.1:8765/callback?code=c" }));
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => undefined);
    render(createElement(OAuthConsentForm, { oauthQuery: "client_id=x&sig=s", scope: "tools:read offline_access" }));
    fireEvent.click(screen.getByRole("button", { name: "Allow" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("http://127.0.0.1:8765/callback?code=c"));
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe("/api/auth/oauth2/consent");
    expect(JSON.parse(String(init.body))).toEqual({ accept: true, oauth_query: "client_id=x&sig=s", scope: "tools:read offline_access" });
  });

  it("offers only Deny when nothing may be granted, and denies with the signed query alone", async () => {
    const fetch = answering(Response.json({ redirect: true, url: "http://127.0.0.1:8765/callback?error=access_denied" }));
    vi.spyOn(window.location, "assign").mockImplementation(() => undefined);
    render(createElement(OAuthConsentForm, { oauthQuery: "q", scope: null }));
    expect(screen.queryByRole("button", { name: "Allow" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Deny" }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(JSON.parse(String(fetch.mock.calls[0][1].body))).toEqual({ accept: false, oauth_query: "q" });
  });

  it("says what went wrong, and may be tried again", async () => {
    answering(Response.json({ error: "invalid_request", error_description: "missing oauth query" }, { status: 400 }));
    render(createElement(OAuthConsentForm, { oauthQuery: "q", scope: "tools:read" }));
    fireEvent.click(screen.getByRole("button", { name: "Allow" }));
    expect((await screen.findByRole("alert")).textContent).toBe("missing oauth query");
    expect((screen.getByRole("button", { name: "Allow" }) as HTMLButtonElement).disabled).toBe(false);
    answering(new TypeError("Failed to fetch"));
    fireEvent.click(screen.getByRole("button", { name: "Allow" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("The server could not be reached: try again."));
  });
});
