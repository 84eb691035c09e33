"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { addMcpServerAction, reloadSourcesAction } from "@/app/catalogs/[catalog]/sources/actions";
import type { McpServerView } from "@/db/queries/mcp-servers";
import type { SourceLoadError } from "@/lib/sources/source-file";
import type { FieldError } from "@/lib/tools/validate";
import { withContentKeys } from "./content-keys";
import { FieldErrors, errorsUnder, invalidProps } from "./field-errors";
import { useCan } from "./catalog-access";
import { McpAddWaiting } from "./mcp-add-waiting";
import { McpServerRow, mcpServersKey } from "./mcp-server-row";
import { RelativeTime } from "./relative-time";

interface PluginSummary {
  name: string;
  file: string;
  tools: { name: string; summary: string }[];
  hasDefinitionHook: boolean;
}

interface SkillSummary {
  name: string;
  description: string;
  file: string;
}

interface AgentSummary {
  name: string;
  description: string;
  mode: string;
}

/** The local folders as the page shows them: plain data, no hooks and no schemas. */
export interface LocalSourcesSummary {
  folders: { plugins: string; skills: string; agents: string };
  loadedAt: string;
  plugins: PluginSummary[];
  skills: SkillSummary[];
  fileAgents: (AgentSummary & { file: string })[];
  errors: { plugins: SourceLoadError[]; skills: SourceLoadError[]; agents: SourceLoadError[] };
}

interface Props {
  catalogId: string;
  servers: McpServerView[];
  local: LocalSourcesSummary;
  /** Every agent of the catalog; the page lists those of mode subagent or all. */
  catalogAgents: AgentSummary[];
  /** When the server rendered the page: relative times start from it, so the first paint matches. */
  renderedAt: number;
  /** The MCP transports this person may add (stdio, and HTTP while private addresses are allowed, need an instance admin). */
  addableTransports: Transport[];
  /** Whether this person may reload the folders (instance admins). */
  mayReload: boolean;
  /** How long a server's first start may take (TOOLSHED_MCP_CONNECT_TIMEOUT_MS): the add form says so while it waits. */
  connectTimeoutMs: number;
}

async function fetchMcpServers(catalogId: string): Promise<McpServerView[]> {
  const response = await fetch(`/api/catalogs/${encodeURIComponent(catalogId)}/mcp-servers`, { headers: { accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? `Request failed: ${response.status}`);
  return body.servers as McpServerView[];
}

export function SourcesPage({ catalogId, servers, local, catalogAgents, renderedAt, addableTransports, mayReload, connectTimeoutMs }: Props) {
  const now = useNow(renderedAt);
  const isAdmin = useCan("admin");
  return (
    <div className="stack" data-testid="sources-page">
      <McpServersSection catalogId={catalogId} initial={servers} now={now} addableTransports={addableTransports} connectTimeoutMs={connectTimeoutMs} />
      <div className="spread">
        <p className="muted small" style={{ margin: 0 }} data-testid="local-loaded-at">
          Plugins, skills and file agents were read from their folders <RelativeTime iso={local.loadedAt} now={now} />.
          {isAdmin && !mayReload && " Instance admins reload them."}
        </p>
        {isAdmin && mayReload && <ReloadButton catalogId={catalogId} />}
      </div>
      <PluginsSection local={local} />
      <SkillsSection local={local} />
      <SubagentsSection local={local} catalogAgents={catalogAgents} />
    </div>
  );
}

/** The current time, ticking every 15 seconds once the page is in the browser. */
function useNow(start: number): number {
  const [now, setNow] = useState(start);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

// ---------------------------------------------------------------------------------------------
// MCP servers

function McpServersSection({
  catalogId,
  initial,
  now,
  addableTransports,
  connectTimeoutMs,
}: {
  catalogId: string;
  initial: McpServerView[];
  now: number;
  addableTransports: Transport[];
  connectTimeoutMs: number;
}) {
  const isAdmin = useCan("admin");
  // Health changes on its own (a server dies, the periodic sync runs): poll while the page is open.
  const { data: servers = initial, error } = useQuery({
    queryKey: mcpServersKey(catalogId),
    queryFn: () => fetchMcpServers(catalogId),
    initialData: initial,
    refetchInterval: 5_000,
  });
  return (
    <section className="panel stack" data-testid="mcp-servers">
      <div>
        <h2 style={{ margin: 0 }}>MCP servers</h2>
        <p className="muted small" style={{ margin: "4px 0 0" }}>
          Each server&apos;s tools are registered as <code>&lt;server&gt;__&lt;tool&gt;</code> (source <span className="badge mcp">mcp</span>). When a server
          fails or disappears its tools stay in the catalog but are <b>unregistered</b>: never offered to a model, rejected by ToolSearch. Sync brings them
          back.
        </p>
      </div>
      {error && (
        <div className="error-box" role="alert">
          Could not refresh the servers&apos; status: {error.message}
        </div>
      )}
      {servers.length === 0 ? (
        <div className="empty" data-testid="mcp-servers-empty">
          <strong>No MCP servers yet</strong>
          Add one below: a command to run (stdio) or a URL (Streamable HTTP).
        </div>
      ) : (
        <div className="table-wrap">
          <table data-testid="mcp-server-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Transport</th>
                <th>Status</th>
                <th>Last sync</th>
                <th>Tools</th>
                <th>Server</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {servers.map((server) => (
                <McpServerRow key={server.name} catalogId={catalogId} server={server} now={now} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {isAdmin && addableTransports.length > 0 ? (
        <AddMcpServerForm catalogId={catalogId} transports={addableTransports} connectTimeoutMs={connectTimeoutMs} />
      ) : isAdmin ? (
        <p className="muted small" data-testid="sources-instance-admin-note">
          {INSTANCE_ADMIN_NOTE} While the operator lets MCP servers reach private addresses, HTTP servers need one too.
        </p>
      ) : (
        <p className="muted small" data-testid="sources-admin-note">
          Team admins add, sync and delete MCP servers.
        </p>
      )}
    </section>
  );
}

export type Transport = "stdio" | "http";

const INSTANCE_ADMIN_NOTE = "Only instance admins add stdio servers (they run a command on this host).";

/** `KEY=value` or `Name: value` lines into a record; every malformed or repeated line is a problem of `field`. */
function parsePairs(text: string, separator: "=" | ":", field: string, example: string): { values: Record<string, string>; problems: FieldError[] } {
  const values: Record<string, string> = {};
  const problems: FieldError[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    const at = line.indexOf(separator);
    const key = at > 0 ? line.slice(0, at).trim() : "";
    if (!key) {
      problems.push({ field, message: `Line ${index + 1}: write ${example}.` });
      return;
    }
    if (key in values) problems.push({ field, message: `Line ${index + 1}: "${key}" is given twice.` });
    values[key] = line.slice(at + 1).trim();
  });
  return { values, problems };
}

function AddMcpServerForm({ catalogId, transports, connectTimeoutMs }: { catalogId: string; transports: Transport[]; connectTimeoutMs: number }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [transport, setTransport] = useState<Transport>(transports[0]);
  const [command, setCommand] = useState("");
  const [args, setArgs] = useState("");
  const [secretArgs, setSecretArgs] = useState("");
  const [env, setEnv] = useState("");
  const [url, setUrl] = useState("");
  const [headers, setHeaders] = useState("");
  const [problems, setProblems] = useState<FieldError[]>([]);

  const add = useMutation({
    mutationFn: async (body: Record<string, unknown>) => {
      const result = await addMcpServerAction(catalogId, body);
      if (!result.ok) {
        setProblems(result.error.problems);
        throw new Error(result.error.message);
      }
      return result.data;
    },
    onSuccess: ({ server, sync }) => {
      setProblems([]);
      setName("");
      setCommand("");
      setArgs("");
      setSecretArgs("");
      setEnv("");
      setUrl("");
      setHeaders("");
      if (sync.error) toast.error(`Added ${server.name}, but it could not be reached`, { description: sync.error, duration: 10_000 });
      else toast.success(`Added ${server.name}: ${sync.added.length} tool(s) registered`);
      void queryClient.invalidateQueries({ queryKey: mcpServersKey(catalogId) });
      router.refresh();
    },
    onError: (error) => toast.error(error.message),
  });

  const submit = () => {
    const local: FieldError[] = [];
    const body: Record<string, unknown> = { name: name.trim(), transport };
    if (transport === "stdio") {
      body.command = command.trim();
      const lines = (text: string) =>
        text
          .split("\n")
          .map((line) => line.trim())
          .filter(Boolean);
      // Secret arguments follow the others; they are stored encrypted and shown as ********.
      const argList = [...lines(args), ...lines(secretArgs).map((value) => ({ value, secret: true as const }))];
      if (argList.length) body.args = argList;
      const parsed = parsePairs(env, "=", "env", "KEY=value");
      local.push(...parsed.problems);
      if (Object.keys(parsed.values).length) body.env = parsed.values;
    } else {
      body.url = url.trim();
      const parsed = parsePairs(headers, ":", "headers", "Name: value");
      local.push(...parsed.problems);
      if (Object.keys(parsed.values).length) body.headers = parsed.values;
    }
    if (local.length) {
      setProblems(local);
      toast.error("Fix the marked lines first");
      return;
    }
    add.mutate(body);
  };

  const shown = transport === "stdio" ? ["name", "transport", "command", "args", "env"] : ["name", "transport", "url", "headers"];
  const rest = problems.filter((problem) => !shown.some((field) => problem.field === field || problem.field.startsWith(`${field}.`)));

  return (
    <form
      className="card stack"
      data-testid="mcp-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h3 style={{ margin: 0 }}>Add MCP server</h3>
      <div className="row" style={{ alignItems: "flex-start" }}>
        <div className="field" style={{ flex: 1 }}>
          <label htmlFor="mcp-name">
            Name <span className="hint">lowercase; prefixes its tools: name__tool</span>
          </label>
          <input
            id="mcp-name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            className="mono"
            placeholder="notes"
            spellCheck={false}
            data-testid="mcp-name"
            {...invalidProps("mcp-name", errorsUnder(problems, "name"))}
          />
          <FieldErrors problems={errorsUnder(problems, "name")} testId="mcp-errors-name" fieldId="mcp-name" />
        </div>
        <div className="field">
          <label htmlFor="mcp-transport">Transport</label>
          <select id="mcp-transport" value={transport} onChange={(event) => setTransport(event.target.value as Transport)} data-testid="mcp-transport">
            <option value="stdio" disabled={!transports.includes("stdio")}>
              {transports.includes("stdio") ? "stdio (run a command)" : "stdio (instance admins only)"}
            </option>
            <option value="http">Streamable HTTP (URL)</option>
          </select>
          {!transports.includes("stdio") && (
            <p className="hint" data-testid="mcp-stdio-note">
              {INSTANCE_ADMIN_NOTE}
            </p>
          )}
          <FieldErrors problems={errorsUnder(problems, "transport")} />
        </div>
      </div>
      {transport === "stdio" ? (
        <>
          <div className="field">
            <label htmlFor="mcp-command">
              Command <span className="hint">the program only, e.g. node or npx; run from the app&apos;s working directory</span>
            </label>
            <input
              id="mcp-command"
              value={command}
              onChange={(event) => setCommand(event.target.value)}
              className="mono"
              placeholder="node"
              spellCheck={false}
              data-testid="mcp-command"
              {...invalidProps("mcp-command", errorsUnder(problems, "command"))}
            />
            <FieldErrors problems={errorsUnder(problems, "command")} testId="mcp-errors-command" fieldId="mcp-command" />
          </div>
          <div className="grid-2">
            <div className="field">
              <label htmlFor="mcp-args">
                Arguments <span className="hint">one argument per line, no shell quoting</span>
              </label>
              <textarea
                id="mcp-args"
                rows={3}
                value={args}
                onChange={(event) => setArgs(event.target.value)}
                className="mono"
                placeholder={"mcp-servers/demo-server.mjs\n--verbose"}
                spellCheck={false}
                data-testid="mcp-args"
                {...invalidProps("mcp-args", errorsUnder(problems, "args"))}
              />
              <label htmlFor="mcp-secret-args">
                Secret arguments{" "}
                <span className="hint">
                  after the others, one per line; stored encrypted and never shown again, but visible to every local user (ps) while the server runs: a variable
                  the operator allows (Environment) keeps a secret better
                </span>
              </label>
              <textarea
                id="mcp-secret-args"
                rows={2}
                value={secretArgs}
                onChange={(event) => setSecretArgs(event.target.value)}
                className="mono"
                placeholder="--api-key=…"
                spellCheck={false}
                autoComplete="off"
                data-testid="mcp-secret-args"
              />
              <FieldErrors problems={errorsUnder(problems, "args")} testId="mcp-errors-args" fieldId="mcp-args" />
            </div>
            <div className="field">
              <label htmlFor="mcp-env">
                Environment{" "}
                <span className="hint">KEY=value, one per line, only names the operator allows for the command; values are secret and never shown again</span>
              </label>
              <textarea
                id="mcp-env"
                rows={3}
                value={env}
                onChange={(event) => setEnv(event.target.value)}
                className="mono"
                placeholder="API_TOKEN=…"
                spellCheck={false}
                autoComplete="off"
                data-testid="mcp-env"
                {...invalidProps("mcp-env", errorsUnder(problems, "env"))}
              />
              <FieldErrors problems={errorsUnder(problems, "env")} testId="mcp-errors-env" fieldId="mcp-env" />
            </div>
          </div>
        </>
      ) : (
        <>
          <div className="field">
            <label htmlFor="mcp-url">
              URL <span className="hint">the Streamable HTTP endpoint, http:// or https://</span>
            </label>
            <input
              id="mcp-url"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              className="mono"
              placeholder="https://example.com/mcp"
              spellCheck={false}
              data-testid="mcp-url"
              {...invalidProps("mcp-url", errorsUnder(problems, "url"))}
            />
            <FieldErrors problems={errorsUnder(problems, "url")} testId="mcp-errors-url" fieldId="mcp-url" />
          </div>
          <div className="field">
            <label htmlFor="mcp-headers">
              Headers <span className="hint">Name: value, one per line; values are secret and never shown again</span>
            </label>
            <textarea
              id="mcp-headers"
              rows={3}
              value={headers}
              onChange={(event) => setHeaders(event.target.value)}
              className="mono"
              placeholder="Authorization: Bearer …"
              spellCheck={false}
              autoComplete="off"
              data-testid="mcp-headers"
              {...invalidProps("mcp-headers", errorsUnder(problems, "headers"))}
            />
            <FieldErrors problems={errorsUnder(problems, "headers")} testId="mcp-errors-headers" fieldId="mcp-headers" />
          </div>
        </>
      )}
      <FieldErrors problems={rest} testId="mcp-errors-other" />
      <div className="row end">
        <span className="muted small">The server is connected and its tools listed as soon as it is added.</span>
        <button type="submit" className="primary" disabled={add.isPending} data-testid="mcp-add">
          {add.isPending ? "Connecting…" : "Add server"}
        </button>
      </div>
      {add.isPending && <McpAddWaiting name={name.trim()} transport={transport} command={command.trim()} connectTimeoutMs={connectTimeoutMs} />}
    </form>
  );
}

// ---------------------------------------------------------------------------------------------
// Local folders: plugins, skills, file agents

function ReloadButton({ catalogId }: { catalogId: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const reload = useMutation({
    mutationFn: async () => {
      const result = await reloadSourcesAction(catalogId);
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onSuccess: ({ errors }) => {
      const failed = errors.plugins.length + errors.skills.length + errors.agents.length;
      if (failed) toast.warning(`Reloaded; ${failed} file(s) failed to load`, { description: "See the errors in each section." });
      else toast.success("Reloaded plugins, skills and agents");
      void queryClient.invalidateQueries({ queryKey: ["tools", catalogId] });
      router.refresh();
    },
    onError: (error) => toast.error(`Could not reload: ${error.message}`),
  });
  return (
    <button type="button" onClick={() => reload.mutate()} disabled={reload.isPending} data-testid="reload-sources">
      {reload.isPending ? "Reloading…" : "Reload plugins, skills and agents"}
    </button>
  );
}

function LoadErrors({ errors, what, testId }: { errors: SourceLoadError[]; what: string; testId: string }) {
  if (errors.length === 0) return null;
  return (
    <div className="error-box" role="alert" data-testid={testId}>
      <b>
        {errors.length} {what} failed to load
      </b>{" "}
      <span className="small">(the others still loaded)</span>
      <ul>
        {withContentKeys(errors, (error) => `${error.file}:${error.line} ${error.message}`).map(([key, error]) => (
          <li key={key} className="small">
            <code>
              {error.file}
              {error.line === undefined ? "" : `:${error.line}`}
            </code>{" "}
            <span className="sources-pre">{error.message}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function SectionHeader({ title, folder, children }: { title: string; folder?: string; children?: React.ReactNode }) {
  return (
    <div>
      <h2 style={{ margin: 0 }}>{title}</h2>
      <p className="muted small" style={{ margin: "4px 0 0" }}>
        {children}
        {folder && (
          <>
            {" "}
            Folder: <code>{folder}</code>
          </>
        )}
      </p>
    </div>
  );
}

function PluginsSection({ local }: { local: LocalSourcesSummary }) {
  return (
    <section className="panel stack" data-testid="plugins">
      <SectionHeader title="Plugins" folder={local.folders.plugins}>
        Modules that export tools defined with zod, scheduled like built-ins; a <code>tool.definition</code> hook may rewrite any tool&apos;s description or
        schema in the pipeline&apos;s last stage.
      </SectionHeader>
      <LoadErrors errors={local.errors.plugins} what="plugin(s)" testId="plugin-errors" />
      {local.plugins.length === 0 ? (
        <div className="empty" data-testid="plugins-empty">
          <strong>No plugins loaded</strong>
          Put a <code>.mjs</code> or <code>.ts</code> module in the plugins folder, then reload.
        </div>
      ) : (
        <div className="cards">
          {local.plugins.map((plugin) => (
            <div key={plugin.file} className="card" data-testid={`plugin-${plugin.name}`}>
              <div className="spread">
                <span className="title">{plugin.name}</span>
                {plugin.hasDefinitionHook ? (
                  <span className="badge warn" data-testid="plugin-hook" title="Rewrites tool definitions in the pipeline's last stage">
                    tool.definition hook
                  </span>
                ) : (
                  <span className="badge" data-testid="plugin-no-hook">
                    no hooks
                  </span>
                )}
              </div>
              <code className="small muted sources-file">{plugin.file}</code>
              {plugin.tools.length === 0 ? (
                <span className="faint small">No tools.</span>
              ) : (
                <ul className="plain-list small">
                  {plugin.tools.map((tool) => (
                    <li key={tool.name} data-testid={`plugin-tool-${tool.name}`}>
                      <code>{tool.name}</code> <span className="muted">{tool.summary}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

function SkillsSection({ local }: { local: LocalSourcesSummary }) {
  return (
    <section className="panel stack" data-testid="skills">
      <SectionHeader title="Skills" folder={local.folders.skills}>
        Each <code>&lt;name&gt;/SKILL.md</code> is listed in the <code>skill</code> tool&apos;s description for the agents its <code>skill:&lt;name&gt;</code>{" "}
        permission lets see it.
      </SectionHeader>
      <LoadErrors errors={local.errors.skills} what="skill(s)" testId="skill-errors" />
      {local.skills.length === 0 ? (
        <div className="empty" data-testid="skills-empty">
          <strong>No skills loaded</strong>
          Add a <code>&lt;name&gt;/SKILL.md</code> with <code>name</code> and <code>description</code> front matter, then reload.
        </div>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Description</th>
                <th>File</th>
              </tr>
            </thead>
            <tbody>
              {local.skills.map((skill) => (
                <tr key={skill.file} data-testid={`skill-${skill.name}`}>
                  <td className="name">{skill.name}</td>
                  <td className="summary">{skill.description}</td>
                  <td className="small">
                    <code className="sources-file">{skill.file}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function SubagentsSection({ local, catalogAgents }: { local: LocalSourcesSummary; catalogAgents: AgentSummary[] }) {
  // Any catalog agent, whatever its mode, hides a file agent of the same name.
  const inCatalog = new Set(catalogAgents.map((agent) => agent.name));
  const subagents = catalogAgents.filter((agent) => agent.mode !== "primary");
  const total = subagents.length + local.fileAgents.length;
  return (
    <section className="panel stack" data-testid="subagents">
      <SectionHeader title="Subagents" folder={local.folders.agents}>
        Agents the <code>task</code> tool can delegate to: those defined on the Agents tab (mode subagent or all) and those read from markdown files. An agent
        defined in the catalog wins over a file agent of the same name.
      </SectionHeader>
      <LoadErrors errors={local.errors.agents} what="agent file(s)" testId="agent-file-errors" />
      {total === 0 ? (
        <div className="empty" data-testid="subagents-empty">
          <strong>No subagents</strong>
          Define one on the Agents tab with mode subagent, or add a markdown file with front matter to the agents folder.
        </div>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Mode</th>
                <th>Description</th>
                <th>From</th>
              </tr>
            </thead>
            <tbody>
              {subagents.map((agent) => (
                <tr key={`catalog-${agent.name}`} data-testid={`subagent-catalog-${agent.name}`}>
                  <td className="name">{agent.name}</td>
                  <td>
                    <span className="badge">{agent.mode}</span>
                  </td>
                  <td className="summary">{agent.description || <span className="faint">No description.</span>}</td>
                  <td className="small">
                    <span className="badge subagent">catalog</span>
                  </td>
                </tr>
              ))}
              {local.fileAgents.map((agent) => (
                <tr key={`file-${agent.file}`} data-testid={`subagent-file-${agent.name}`} className={inCatalog.has(agent.name) ? "disabled" : undefined}>
                  <td className="name">{agent.name}</td>
                  <td>
                    <span className="badge">{agent.mode}</span>
                  </td>
                  <td className="summary">{agent.description}</td>
                  <td className="small">
                    <span className="badge plugin">file</span> <code className="sources-file">{agent.file}</code>
                    {inCatalog.has(agent.name) && <div className="faint">overridden by the catalog&apos;s agent of the same name</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
