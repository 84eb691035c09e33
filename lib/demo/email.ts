import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const messageId = z.string().describe("Message ID as returned by email_search.");

export const EMAIL_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "email_search",
    summary: "Search the mailbox by sender, recipient, subject, words, label or date and list matching emails.",
    description:
      "Returns matching messages, newest first, with ID, thread ID, sender, recipients, subject, date, labels and a short snippet. The query supports operators such as from:, to:, subject:, has:attachment, is:unread, after:YYYY/MM/DD and label:.",
    parameters: {
      query: z.string().describe('Search query with optional operators, e.g. "from:billing@acme.com is:unread".'),
      limit: z.int().min(1).max(100).default(20).describe("Maximum number of messages."),
    },
    tags: ["email", "search", "read-only"],
  }),
  defineDemoTool({
    name: "email_read_message",
    summary: "Read the full text of an email or of its whole thread, including headers and attachment names.",
    description:
      "Returns headers, the plain-text body (HTML converted to text) and the list of attachments of a message; with thread set, every message of the conversation in order. Quoted earlier replies are collapsed.",
    parameters: {
      messageId,
      thread: z.boolean().default(false).describe("Return the whole conversation instead of one message."),
    },
    tags: ["email", "read-only"],
  }),
  defineDemoTool({
    name: "email_send",
    summary: "Send a new email to recipients, with optional CC, BCC, HTML body and attachments from storage.",
    description:
      "Sends a message immediately from the connected account. Sent email cannot be recalled: when the user has not approved the exact text, create a draft with email_create_draft instead. To answer an existing email, use email_reply so the conversation stays threaded.",
    parameters: {
      to: z.array(z.email()).min(1).describe("Recipient addresses."),
      cc: z.array(z.email()).optional().describe("Carbon-copy addresses."),
      bcc: z.array(z.email()).optional().describe("Blind-copy addresses."),
      subject: z.string().min(1).describe("Subject line."),
      body: z.string().describe("Message body; plain text unless html is true."),
      html: z.boolean().default(false).describe("Treat body as HTML."),
      attachments: z
        .array(z.object({ bucket: z.string().describe("Storage bucket."), key: z.string().describe("Object key.") }))
        .optional()
        .describe("Files from cloud storage to attach."),
    },
    tags: ["email", "write"],
  }),
  defineDemoTool({
    name: "email_reply",
    summary: "Reply to an email within its thread, to the sender only or to all recipients.",
    description:
      "Sends a reply that keeps the subject and threading headers of the original, quoting it below the new text. Use replyAll only when everyone on the original email should see the answer.",
    parameters: {
      messageId,
      body: z.string().min(1).describe("Reply text, plain text."),
      replyAll: z.boolean().default(false).describe("Reply to all recipients, not only the sender."),
    },
    tags: ["email", "write"],
  }),
  defineDemoTool({
    name: "email_create_draft",
    summary: "Save an email as a draft for the user to review and send later, without sending anything.",
    description:
      "Creates a draft in the connected mailbox and returns its ID and a link to open it. Use it when the user wants to check the wording first. Set inReplyTo to draft a reply in an existing thread.",
    parameters: {
      to: z.array(z.email()).describe("Recipient addresses; may be empty for an unfinished draft."),
      subject: z.string().describe("Subject line."),
      body: z.string().describe("Message body, plain text."),
      inReplyTo: z.string().optional().describe("Message ID this draft replies to."),
    },
    tags: ["email", "drafts"],
  }),
];
