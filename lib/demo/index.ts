import { BROWSER_TOOLS } from "./browser";
import { CALENDAR_TOOLS } from "./calendar";
import { EMAIL_TOOLS } from "./email";
import { GITHUB_TOOLS } from "./github";
import { JIRA_TOOLS } from "./jira";
import { LINEAR_TOOLS } from "./linear";
import { POSTGRES_TOOLS } from "./postgres";
import { SENTRY_TOOLS } from "./sentry";
import { SLACK_TOOLS } from "./slack";
import { STORAGE_TOOLS } from "./storage";
import { STRIPE_TOOLS } from "./stripe";
import type { DemoTool } from "./types";
import { WEATHER_TOOLS } from "./weather";

export type { DemoTool } from "./types";

export const DEMO_CATALOG = {
  id: "demo",
  name: "Demo",
  description:
    "A sample catalog: the built-in coding tools plus custom tools for GitHub, Slack, Linear, Jira, calendar, Postgres, browser automation, file storage, email, Sentry, Stripe and weather, to try filtering, preselection and ToolSearch.",
} as const;

export const DEMO_TOOLS: readonly DemoTool[] = [
  ...GITHUB_TOOLS,
  ...SLACK_TOOLS,
  ...LINEAR_TOOLS,
  ...JIRA_TOOLS,
  ...CALENDAR_TOOLS,
  ...POSTGRES_TOOLS,
  ...BROWSER_TOOLS,
  ...STORAGE_TOOLS,
  ...EMAIL_TOOLS,
  ...SENTRY_TOOLS,
  ...STRIPE_TOOLS,
  ...WEATHER_TOOLS,
];
