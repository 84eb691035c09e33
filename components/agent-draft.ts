import type { UseFormReturn } from "react-hook-form";
import type { Agent } from "@/lib/rules/agents";
import { splitList } from "./field-errors";

/** An agent as its form holds it: its base tools as the comma-separated text typed. */
export type AgentDraft = Omit<Agent, "baseTools"> & { baseTools: string };

/** The agent form: its drafts, read into agents when they pass its checks. */
export type AgentFormState = UseFormReturn<AgentDraft, unknown, Agent>;

export const agentToDraft = (agent: Agent): AgentDraft => ({ ...agent, baseTools: agent.baseTools.join(", ") });

export const agentFromDraft = (draft: AgentDraft): Agent => ({
  name: draft.name.trim(),
  mode: draft.mode,
  description: draft.description.trim(),
  permissions: draft.permissions,
  baseTools: splitList(draft.baseTools),
});
