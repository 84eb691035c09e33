"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import type { DynamicToolUIPart } from "ai";
import { Fragment, useId } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { FieldErrors, invalidProps } from "./field-errors";
import { simulatedCall } from "./playground-chat";

/** A result as long as the playground route takes (lib/api-schemas.ts playgroundBody `toolResults`). */
const resultsSchema = z.object({
  outputs: z.array(z.string().max(100_000, "A result is at most 100,000 characters.")),
});

type ResultsValues = z.infer<typeof resultsSchema>;

interface Props {
  calls: DynamicToolUIPart[];
  onSubmit: (results: { toolCallId: string; toolName: string; output: string }[]) => Promise<void>;
}

/** The simulated calls waiting for a result: the placeholder their tool offers, or what the person types. */
export function PendingResults({ calls, onSubmit }: Props) {
  const id = useId();
  const { register, handleSubmit, formState } = useForm<ResultsValues>({
    resolver: zodResolver(resultsSchema),
    defaultValues: { outputs: calls.map((call) => simulatedCall(call)?.placeholder ?? "") },
  });
  const send = handleSubmit(({ outputs }) =>
    onSubmit(calls.map((call, index) => ({ toolCallId: call.toolCallId, toolName: call.toolName, output: outputs[index] ?? "" }))),
  );
  return (
    <form className="panel stack" data-testid="pending-results" onSubmit={(event) => void send(event)}>
      <div>
        <b>Simulated results</b>{" "}
        <span className="muted small">
          Nothing runs on the server: type what <code>{calls.map((call) => call.toolName).join(", ")}</code> would return, or keep the placeholder.
        </span>
      </div>
      {calls.map((call, index) => {
        const error = formState.errors.outputs?.[index];
        const problems = error ? [{ field: call.toolName, message: error.message ?? "" }] : [];
        return (
          <Fragment key={call.toolCallId}>
            <label className="field">
              <code>{call.toolName}</code>
              <textarea
                className="code"
                rows={4}
                {...register(`outputs.${index}`)}
                {...invalidProps(`${id}-${index}`, problems)}
                data-testid={`result-${call.toolName}`}
              />
            </label>
            <FieldErrors problems={problems} fieldId={`${id}-${index}`} />
          </Fragment>
        );
      })}
      <div className="row end">
        <button type="submit" className="primary" disabled={formState.isSubmitting} data-testid="send-results">
          Send results
        </button>
      </div>
    </form>
  );
}
