import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const channel = z.string().describe('Channel ID (e.g. "C024BE91L") or name with # (e.g. "#deploys").');

export const SLACK_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "slack_post_message",
    summary: "Post a new message to a Slack channel or direct message, formatted with Slack mrkdwn.",
    description:
      "Sends a message as the workspace bot and returns its timestamp (ts), which identifies it for replies and reactions. The bot must be a member of private channels. To answer inside an existing conversation, use slack_reply_in_thread instead.",
    parameters: {
      channel,
      text: z.string().min(1).max(40000).describe("Message text in Slack mrkdwn (*bold*, _italic_, <url|label>, <@U123> mentions)."),
      unfurlLinks: z.boolean().default(false).describe("Show link previews."),
    },
    tags: ["slack", "messaging", "write"],
  }),
  defineDemoTool({
    name: "slack_reply_in_thread",
    summary: "Reply inside an existing Slack thread, optionally also broadcasting the reply to the channel.",
    description:
      "Posts a threaded reply under the message identified by threadTs. Keeps follow-ups together instead of flooding the channel. Set broadcast only when everyone in the channel needs to see the reply.",
    parameters: {
      channel,
      threadTs: z.string().describe('Timestamp (ts) of the thread\'s parent message, e.g. "1712345678.000200".'),
      text: z.string().min(1).describe("Reply text in Slack mrkdwn."),
      broadcast: z.boolean().default(false).describe("Also post the reply to the channel."),
    },
    tags: ["slack", "messaging", "write"],
  }),
  defineDemoTool({
    name: "slack_search_messages",
    summary: "Search Slack message history across channels with Slack search modifiers (in:, from:, before:, after:).",
    description:
      'Returns messages matching a Slack search query with channel, author, timestamp, permalink and text. Only channels the connected user can see are searched. Use modifiers to narrow results, e.g. "deploy failed in:#ops after:2024-05-01".',
    parameters: {
      query: z.string().min(1).describe("Search terms with optional modifiers such as in:#channel, from:@user, before:/after:YYYY-MM-DD."),
      sort: z.enum(["score", "timestamp"]).default("score").describe("Rank by relevance or by recency."),
      limit: z.int().min(1).max(100).default(20).describe("Maximum number of messages."),
    },
    tags: ["slack", "messaging", "search", "read-only"],
  }),
  defineDemoTool({
    name: "slack_get_channel_history",
    summary: "Read the latest messages of one Slack channel, or of one thread, in order, to catch up on a conversation.",
    description:
      "Returns messages from a channel, newest first, or all replies of a thread when threadTs is given. Use it to read what was discussed recently; use slack_search_messages to find something specific across channels.",
    parameters: {
      channel,
      threadTs: z.string().optional().describe("Return the replies of this thread instead of the channel's messages."),
      oldest: z.iso.datetime({ offset: true }).optional().describe("Only messages after this time (ISO 8601)."),
      limit: z.int().min(1).max(200).default(50).describe("Maximum number of messages."),
    },
    tags: ["slack", "messaging", "read-only"],
  }),
  defineDemoTool({
    name: "slack_list_channels",
    summary: "List Slack channels in the workspace with topic, purpose and member count, optionally filtered by name.",
    description:
      "Returns public channels, and private channels the bot belongs to, with ID, name, topic, purpose and member count. Use it to find the right channel ID before posting or reading history. Archived channels are excluded unless requested.",
    parameters: {
      nameContains: z.string().optional().describe("Only channels whose name contains this text."),
      includeArchived: z.boolean().default(false).describe("Include archived channels."),
      limit: z.int().min(1).max(1000).default(200).describe("Maximum number of channels."),
    },
    tags: ["slack", "read-only"],
  }),
  defineDemoTool({
    name: "slack_add_reaction",
    summary: "Add an emoji reaction to a Slack message, e.g. to acknowledge a request or mark it done.",
    description:
      "Reacts to the message identified by channel and timestamp. Use the emoji's name without colons; custom workspace emoji work too. Adding a reaction that is already there is a no-op.",
    parameters: {
      channel,
      messageTs: z.string().describe("Timestamp (ts) of the message to react to."),
      emoji: z
        .string()
        .regex(/^[a-z0-9_+-]+$/)
        .describe('Emoji name without colons, e.g. "white_check_mark" or "eyes".'),
    },
    tags: ["slack", "messaging", "write"],
  }),
  defineDemoTool({
    name: "slack_lookup_user",
    summary: "Find a Slack user by email, name or user ID and get their profile, title, time zone and presence.",
    description:
      "Returns matching workspace members with user ID, display name, real name, title, email, time zone and current presence. Use the user ID to mention someone (<@U123>) or to open a direct message.",
    parameters: {
      query: z.string().min(1).describe("Email address, display name, real name or user ID."),
    },
    tags: ["slack", "people", "read-only"],
  }),
];
