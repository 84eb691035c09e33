import type { SourceLoadError } from "@/lib/sources/source-file";
import { withContentKeys } from "./content-keys";

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

export interface AgentSummary {
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

export function PluginsSection({ local }: { local: LocalSourcesSummary }) {
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

export function SkillsSection({ local }: { local: LocalSourcesSummary }) {
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
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus for the keyboard to scroll it (WCAG 2.1.1)
        <section className="table-wrap" aria-label="Skills table" tabIndex={0}>
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
        </section>
      )}
    </section>
  );
}

export function SubagentsSection({ local, catalogAgents }: { local: LocalSourcesSummary; catalogAgents: AgentSummary[] }) {
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
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus for the keyboard to scroll it (WCAG 2.1.1)
        <section className="table-wrap" aria-label="Subagents table" tabIndex={0}>
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
        </section>
      )}
    </section>
  );
}
