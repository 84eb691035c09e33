import path from "node:path";
import { pageUser } from "@/app/_services/access";
import { grantsOf } from "@/app/_services/oauth-grants";
import { OAuthGrants } from "@/components/oauth-grants";
import { databaseFile } from "@/db/client";
import { describeModelConfig, type ModelConfigDescription, type ModelSlotDescription } from "@/lib/ai/models";
import { isInstanceAdmin, TEAM_CREATION_ENV, teamCreationPolicy } from "@/lib/auth/policy";

export const dynamic = "force-dynamic";
export const metadata = { title: "Settings" };

function Slot({ title, slot, purpose, extra }: { title: string; slot: ModelSlotDescription; purpose: string; extra?: React.ReactNode }) {
  return (
    <section className="panel stack" data-testid={`model-${slot.variable}`}>
      <div className="spread">
        <h2 style={{ margin: 0 }}>{title}</h2>
        {slot.error ? (
          <span className="badge off">misconfigured</span>
        ) : slot.spec ? (
          <span className="badge ok">configured</span>
        ) : (
          <span className="badge">not configured</span>
        )}
      </div>
      <p className="muted small">{purpose}</p>
      <table>
        <tbody>
          <tr>
            <th style={{ width: 200 }}>Variable</th>
            <td>
              <code>{slot.variable}</code>
            </td>
          </tr>
          <tr>
            <th>Value</th>
            <td>
              <code data-testid="spec">{slot.spec ?? "(unset)"}</code>
            </td>
          </tr>
          <tr>
            <th>Provider</th>
            <td>{slot.provider ?? "—"}</td>
          </tr>
          <tr>
            <th>Model</th>
            <td>{slot.model ?? (slot.provider === "local" ? "embedded BM25F ranker" : "—")}</td>
          </tr>
          <tr>
            <th>Base URL</th>
            <td>{slot.baseUrl ?? (slot.provider && slot.provider !== "local" ? "provider default" : "—")}</td>
          </tr>
          <tr>
            <th>API key</th>
            <td data-testid="key-state">
              {slot.keyVariable ? (
                <>
                  {slot.keySet ? "set" : "not set"} in <code>{slot.keyVariable}</code>
                </>
              ) : (
                "—"
              )}
            </td>
          </tr>
          {extra}
        </tbody>
      </table>
      {slot.error && (
        <div className="error-box" role="alert">
          {slot.error}
        </div>
      )}
    </section>
  );
}

/** The aux model's limits: none for the local ranker, nor when its timeout cannot be read. */
function AuxLimits({ aux }: { aux: ModelConfigDescription["aux"] }) {
  if (aux.timeoutMs === null) return null;
  return (
    <>
      <tr>
        <th>Timeout</th>
        <td>
          {aux.timeoutMs} ms (<code>TOOLSHED_AUX_TIMEOUT_MS</code>)
        </td>
      </tr>
      <tr>
        <th>Shortlist</th>
        <td>
          {aux.shortlist} candidates (<code>TOOLSHED_AUX_SHORTLIST</code>)
        </td>
      </tr>
    </>
  );
}

function EmbeddingRows({ config }: { config: ModelConfigDescription }) {
  return (
    <>
      {config.embedding.timeoutMs !== null && (
        <>
          <tr>
            <th>Timeout</th>
            <td>
              {config.embedding.timeoutMs} ms (<code>TOOLSHED_EMBEDDING_TIMEOUT_MS</code>)
            </td>
          </tr>
          <tr>
            <th>Batch</th>
            <td>
              {config.embedding.batchSize} tools per call (<code>TOOLSHED_EMBEDDING_BATCH</code>)
            </td>
          </tr>
        </>
      )}
      <tr>
        <th>Default selector</th>
        <td data-testid="default-selector">
          <code>{config.defaultSelector ?? "—"}</code>
        </td>
      </tr>
    </>
  );
}

function RolesSection({ instanceAdmin }: { instanceAdmin: boolean }) {
  return (
    <section className="panel">
      <h2>Roles</h2>
      <p data-testid="instance-admin">
        {instanceAdmin
          ? "You are an instance admin: you may add stdio MCP servers, reload the plugin, skill and agent folders and create teams."
          : "You are not an instance admin: stdio MCP servers, reloading the plugin, skill and agent folders and (unless opened to everyone) creating teams are theirs."}
      </p>
      <p data-testid="team-creation">
        Teams are created by {teamCreationPolicy() === "everyone" ? "everyone signed in" : "instance admins only"} (<code>{TEAM_CREATION_ENV}</code>).
      </p>
    </section>
  );
}

export default async function SettingsPage() {
  const user = await pageUser();
  const config = describeModelConfig(process.env);
  return (
    <main className="page stack">
      <div>
        <h1>Settings</h1>
        <p className="sub">Set by environment variables when the server starts (see the README). Keys are never shown.</p>
      </div>
      <Slot
        title="Auxiliary model (preselection and ToolSearch)"
        slot={config.aux}
        purpose="Ranks tools from names and short descriptions before each turn, and answers ToolSearch queries that are not exact names. The embedded local ranker needs no key; a model falls back to it on a timeout, an error or unusable output."
        extra={<AuxLimits aux={config.aux} />}
      />
      <Slot
        title="Embedding model (hybrid selector)"
        slot={config.embedding}
        purpose="Optional. Enables the hybrid selector: the local ranking fused with embedding similarity, so a request in other words than a tool's still finds it. Each tool is embedded once per definition and stored; each request costs one embedding call, and the local selector answers on a timeout or an error."
        extra={<EmbeddingRows config={config} />}
      />
      <Slot
        title="Main model (playground)"
        slot={config.main}
        purpose="Answers in the playground with the turn's tool set and ToolSearch. Without it the playground still shows each turn's tool set and offers a ToolSearch console."
      />
      <RolesSection instanceAdmin={isInstanceAdmin(user)} />
      <OAuthGrants grants={await grantsOf(user)} />
      <section className="panel">
        <h2>Storage</h2>
        <p>
          SQLite database <code data-testid="db-file">{path.resolve(databaseFile())}</code> (<code>TOOLSHED_DB</code>)
        </p>
      </section>
    </main>
  );
}
