import type { Decision } from "@/db/queries/decisions";
import type { CallDecisionInput } from "@/lib/gateway/call-check";
import type { FederationDecisionInput } from "@/lib/gateway/federation";
import { isFederationKind } from "@/lib/selection/types";
import { CallInputView } from "./call-decision";
import { CodeBlock } from "./code-block";
import { withContentKeys } from "./content-keys";
import { FederationInputView } from "./federation-decision";

interface Message {
  role: string;
  content: string;
}

interface PreselectInput {
  messages?: Message[];
  k?: number | null;
  history?: string[];
  provider?: string | null;
}

interface ToolSearchInput {
  query?: string;
  maxResults?: number | null;
  messages?: Message[];
  provider?: string | null;
}

/** What a decision was asked: the conversation and settings a selection saw, or the call the gateway was sent. */
export function DecisionInput({ decision }: { decision: Decision }) {
  return (
    <div className="panel stack" data-testid="decision-input">
      <h2>{decision.kind === "call" ? "Call" : isFederationKind(decision.kind) ? "Request" : "Input"}</h2>
      {isFederationKind(decision.kind) ? (
        <FederationInputView kind={decision.kind} input={decision.input as Partial<FederationDecisionInput>} />
      ) : decision.kind === "preselect" ? (
        <PreselectInputView input={decision.input as PreselectInput} />
      ) : decision.kind === "call" ? (
        <CallInputView input={decision.input as Partial<CallDecisionInput>} />
      ) : (
        <ToolSearchInputView input={decision.input as ToolSearchInput} />
      )}
    </div>
  );
}

function Messages({ messages }: { messages: Message[] }) {
  if (messages.length === 0) return <p className="faint">No messages.</p>;
  return (
    <ol className="messages-log">
      {withContentKeys(messages, (message) => `${message.role} ${message.content}`).map(([key, message]) => (
        <li key={key}>
          <span className="badge">{message.role}</span> <span className="message-text">{message.content}</span>
        </li>
      ))}
    </ol>
  );
}

function PreselectInputView({ input }: { input: PreselectInput }) {
  return (
    <>
      <div>
        <h3>Messages</h3>
        <Messages messages={input.messages ?? []} />
      </div>
      <div className="row small">
        <span className="tag">k: {input.k ?? "default"}</span>
        {input.provider && <span className="tag">provider: {input.provider}</span>}
      </div>
      <div>
        <h3>History at the time</h3>
        {input.history?.length ? (
          input.history.map((name) => (
            <code key={name} className="tag">
              {name}
            </code>
          ))
        ) : (
          <span className="faint">none</span>
        )}
      </div>
    </>
  );
}

function ToolSearchInputView({ input }: { input: ToolSearchInput }) {
  return (
    <>
      <div>
        <h3>Query</h3>
        <CodeBlock label="Query" data-testid="decision-query">
          {input.query}
        </CodeBlock>
      </div>
      <div className="row small">
        <span className="tag">max results: {input.maxResults ?? "default"}</span>
        {input.provider && <span className="tag">provider: {input.provider}</span>}
      </div>
      <div>
        <h3>Conversation it saw</h3>
        <Messages messages={input.messages ?? []} />
      </div>
    </>
  );
}
