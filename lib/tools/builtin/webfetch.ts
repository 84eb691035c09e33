import { z } from "zod";
import { defineBuiltinTool } from "./types";

const DESCRIPTION = `Fetches a URL and returns its content as markdown (the default), plain text or raw HTML.

Usage:
- url must be a fully qualified http:// or https:// URL. Plain http URLs are upgraded to https.
- HTML pages are converted to markdown unless you ask for "html"; other text types are returned as they are. Images are returned as attachments where the model supports them.
- Responses larger than 5 MB are refused. timeout is in seconds (default 30, at most 120).
- This tool is read-only: it performs GET requests and does not submit forms, log in or run page scripts.
- When a URL redirects to a different host, the result says so and gives the new URL; fetch that URL in a new call if you want to follow it.

When to use:
- Reading documentation, an issue, a changelog or an API reference whose URL the user gave you or that you found with websearch.

When not to use:
- Do not guess or construct URLs the user did not provide or a search did not return, unless you are confident they are correct and relevant to programming.
- Pages behind a login return the login page instead of the content; ask the user to paste the content instead.
- For searching the web without a specific URL, use websearch where it is available.`;

export const webfetchTool = defineBuiltinTool({
  name: "webfetch",
  summary: "Fetch a web page or file by URL and return it as markdown, text or HTML; needed to read online documentation or a link the user gave.",
  description: DESCRIPTION,
  parameters: {
    url: z.url().describe("The http(s) URL to fetch."),
    format: z.enum(["markdown", "text", "html"]).default("markdown").describe("The form to return the content in."),
    timeout: z.int().min(1).max(120).optional().describe("Timeout in seconds (default 30, maximum 120)."),
  },
  tags: ["web", "read-only"],
});
