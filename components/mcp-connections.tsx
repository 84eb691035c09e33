"use client";

import { useState } from "react";
import { toast } from "sonner";
import { connectWithSecretAction, disconnectAction, startOAuthConnectionAction } from "@/app/connections/actions";
import type { McpConnectionView } from "@/app/_services/mcp-connections";
import { ConfirmButton } from "./confirm-button";
import { LocalTime } from "./local-time";
import { useTeamAction } from "./team-kit";

/** The per-person MCP servers of the person's catalogs: connected since when (never the value), connect, disconnect. */
export function McpConnections({ connections, focus }: { connections: McpConnectionView[]; focus?: string }) {
  if (connections.length === 0) return <p className="muted">No MCP server of your catalogs takes each person&apos;s own account.</p>;
  return (
    <section className="panel stack" data-testid="mcp-connections">
      <table>
        <thead>
          <tr>
            <th>Server</th>
            <th>Catalog</th>
            <th>Your account</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {connections.map((connection) => (
            <ConnectionRow
              key={`${connection.catalogId}/${connection.server}`}
              connection={connection}
              focused={focus === `${connection.catalogId}/${connection.server}`}
            />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ConnectionRow({ connection, focused }: { connection: McpConnectionView; focused: boolean }) {
  const target = { catalog: connection.catalogId, server: connection.server };
  const testId = `mcp-connection-${connection.catalogId}-${connection.server}`;
  return (
    <tr data-testid={testId} className={focused ? "selected" : undefined}>
      <td>
        <code>{connection.server}</code>
        <div className="muted small">{connection.mode === "per-user-oauth" ? "OAuth sign-in" : "your own secret"}</div>
      </td>
      <td>{connection.catalogName}</td>
      <td data-testid={`${testId}-state`}>
        {connection.connectedAt ? (
          <>
            connected since <LocalTime iso={connection.connectedAt} />
          </>
        ) : (
          "not connected"
        )}
      </td>
      <td>
        <div className="row end">
          {connection.mode === "per-user-oauth" ? <OAuthConnect target={target} /> : <SecretConnect target={target} testId={testId} />}
          {connection.connectedAt && <Disconnect target={target} testId={testId} />}
        </div>
      </td>
    </tr>
  );
}

type Target = { catalog: string; server: string };

function SecretConnect({ target, testId }: { target: Target; testId: string }) {
  const { pending, run } = useTeamAction();
  const [secret, setSecret] = useState("");
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    run(
      () => connectWithSecretAction(target, secret),
      () => {
        setSecret("");
        toast.success(`Connected to ${target.server}`);
      },
    );
  };
  return (
    <form className="row" onSubmit={save}>
      <input
        type="password"
        value={secret}
        onChange={(event) => setSecret(event.target.value)}
        aria-label={`Your secret for ${target.server}`}
        autoComplete="off"
        data-testid={`${testId}-secret`}
      />
      <button type="submit" className="primary" disabled={pending || !secret} data-testid={`${testId}-save`}>
        {pending ? "Saving…" : "Save"}
      </button>
    </form>
  );
}

function OAuthConnect({ target }: { target: Target }) {
  const { pending, run } = useTeamAction();
  const connect = () =>
    run(
      () => startOAuthConnectionAction(target),
      (answer) => {
        if ("authorizationUrl" in answer) window.location.assign(answer.authorizationUrl);
        else toast.success(`Connected to ${target.server}`);
      },
    );
  return (
    <button type="button" className="primary" disabled={pending} onClick={connect} data-testid={`mcp-connection-${target.catalog}-${target.server}-connect`}>
      {pending ? "Connecting…" : "Connect"}
    </button>
  );
}

function Disconnect({ target, testId }: { target: Target; testId: string }) {
  const { run } = useTeamAction();
  return (
    <ConfirmButton
      label="Disconnect"
      testId={`${testId}-disconnect`}
      title={`Disconnect from ${target.server}?`}
      body={<>Your credential is forgotten; your calls of its tools fail until you connect again.</>}
      confirmLabel="Disconnect"
      onConfirm={() =>
        run(
          () => disconnectAction(target),
          () => toast.success(`Disconnected from ${target.server}`),
        )
      }
    />
  );
}
