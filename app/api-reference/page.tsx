import Link from "next/link";
import { openApiDocument } from "@/lib/openapi";
import { CodeBlock } from "@/components/code-block";

export const metadata = { title: "API reference" };

/**
 * The OpenAPI document drawn as a page: operations grouped by path with their parameters, request
 * body and answers, then every schema they name. Public, like /api/openapi.json: it holds no data.
 */

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: string; required: boolean; description?: string; schema: Schema };
type Answer = { description?: string; content?: Record<string, { schema: Schema }>; $ref?: string };
type Operation = {
  summary: string;
  description: string;
  security: unknown[];
  parameters?: Parameter[];
  requestBody?: { required: boolean; description?: string; content: Record<string, { schema: Schema }> };
  responses: Record<string, Answer>;
};

const schemaName = (ref: string) => ref.replace("#/components/schemas/", "");
/** An element id made of a path or a name. */
const anchor = (text: string) => text.replace(/[^A-Za-z0-9]+/g, "-");

/** A schema in a few words: a named schema links to its section below. */
function SchemaType({ schema }: { schema: Schema | undefined }): React.ReactNode {
  if (!schema || Object.keys(schema).length === 0) return "any";
  if (typeof schema.$ref === "string") {
    const name = schemaName(schema.$ref);
    return <a href={`#schema-${name}`}>{name}</a>;
  }
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives)
    return join(
      alternatives.map((alternative) => <SchemaType key={JSON.stringify(alternative)} schema={alternative} />),
      " or ",
    );
  if (schema.const !== undefined) return <code>{JSON.stringify(schema.const)}</code>;
  if (Array.isArray(schema.enum))
    return join(
      schema.enum.map((value) => <code key={String(value)}>{JSON.stringify(value)}</code>),
      " | ",
    );
  if (schema.type === "array") {
    return (
      <>
        array of <SchemaType schema={schema.items as Schema | undefined} />
      </>
    );
  }
  const format = typeof schema.format === "string" ? ` (${schema.format})` : "";
  return `${Array.isArray(schema.type) ? schema.type.join(" or ") : String(schema.type ?? "any")}${format}`;
}

function join(parts: React.ReactNode[], separator: string): React.ReactNode {
  return parts.flatMap((part, index) => (index === 0 ? [part] : [separator, part]));
}

/** A table with a caption and column headers, for screen readers as much as for eyes. */
function Table({ caption, columns, children }: { caption: string; columns: string[]; children: React.ReactNode }) {
  return (
    <table className="compact">
      <caption className="muted small">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

function Properties({ schema, caption }: { schema: Schema; caption: string }) {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  if (properties.length === 0) return null;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return (
    <Table caption={caption} columns={["Field", "Type", "Required", "Description"]}>
      {properties.map(([name, property]) => (
        <tr key={name}>
          <td>
            <code>{name}</code>
          </td>
          <td>
            <SchemaType schema={property} />
          </td>
          <td>{required.has(name) ? "yes" : "no"}</td>
          <td>{typeof property.description === "string" ? property.description : ""}</td>
        </tr>
      ))}
    </Table>
  );
}

function OperationSection({ path, method, operation }: { path: string; method: string; operation: Operation }) {
  const id = anchor(`${method}-${path}`);
  const body = operation.requestBody;
  return (
    <section className="panel stack" aria-labelledby={id}>
      <h4 id={id} style={{ margin: 0 }}>
        <span className="badge">{method.toUpperCase()}</span> {operation.summary}
      </h4>
      {operation.description.split("\n\n").map((paragraph) => (
        <p key={paragraph} className="muted small" style={{ margin: 0 }}>
          {paragraph}
        </p>
      ))}
      {operation.parameters?.length ? (
        <Table caption="Parameters" columns={["Name", "In", "Type", "Required", "Description"]}>
          {operation.parameters.map((parameter) => (
            <tr key={`${parameter.in}-${parameter.name}`}>
              <td>
                <code>{parameter.name}</code>
              </td>
              <td>{parameter.in}</td>
              <td>
                <SchemaType schema={parameter.schema} />
              </td>
              <td>{parameter.required ? "yes" : "no"}</td>
              <td>{parameter.description ?? ""}</td>
            </tr>
          ))}
        </Table>
      ) : null}
      {body
        ? Object.entries(body.content).map(([mediaType, { schema }]) => (
            <p key={mediaType} className="small" style={{ margin: 0 }}>
              Request body ({mediaType}
              {body.required ? "" : ", optional"}): <SchemaType schema={schema} />
              {body.description ? ` — ${body.description}` : ""}
            </p>
          ))
        : null}
      <Table caption="Responses" columns={["Status", "Body", "Description"]}>
        {Object.entries(operation.responses).map(([status, answer]) => {
          const resolved: Answer = answer.$ref ? (openApiDocument().components.responses.Error as Answer) : answer;
          const [content] = Object.entries(resolved.content ?? {});
          return (
            <tr key={status}>
              <td>{status}</td>
              <td>
                {content ? (
                  <>
                    <SchemaType schema={content[1].schema} /> <span className="muted small">({content[0]})</span>
                  </>
                ) : (
                  "none"
                )}
              </td>
              <td>{resolved.description}</td>
            </tr>
          );
        })}
      </Table>
    </section>
  );
}

export default function ApiReferencePage() {
  const document = openApiDocument();
  const paths = Object.entries(document.paths as unknown as Record<string, Record<string, Operation>>);
  const schemes = Object.entries(document.components.securitySchemes);
  return (
    <main className="page stack">
      <div className="page-header">
        <div>
          <h1 style={{ margin: 0 }}>API reference</h1>
          <p className="muted">
            {document.info.description} The machine-readable document: <Link href="/api/openapi.json">/api/openapi.json</Link> (OpenAPI {document.openapi}).
          </p>
        </div>
      </div>
      <section className="stack" aria-labelledby="authentication">
        <h2 id="authentication">Authentication</h2>
        <Table caption="Security schemes" columns={["Scheme", "Sent as", "Description"]}>
          {schemes.map(([name, scheme]) => (
            <tr key={name}>
              <td>
                <code>{name}</code>
              </td>
              <td>{"scheme" in scheme ? "Authorization: Bearer <token>" : `cookie ${scheme.name}`}</td>
              <td>{scheme.description}</td>
            </tr>
          ))}
        </Table>
      </section>
      <section className="stack" aria-labelledby="operations">
        <h2 id="operations">Operations</h2>
        <nav aria-label="Paths">
          <ul className="small">
            {paths.map(([path]) => (
              <li key={path}>
                <a href={`#path-${anchor(path)}`}>
                  <code>{path}</code>
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {paths.map(([path, operations]) => (
          <section key={path} className="stack" aria-labelledby={`path-${anchor(path)}`}>
            <h3 id={`path-${anchor(path)}`} style={{ margin: 0 }}>
              <code>{path}</code>
            </h3>
            {Object.entries(operations).map(([method, operation]) => (
              <OperationSection key={method} path={path} method={method} operation={operation} />
            ))}
          </section>
        ))}
      </section>
      <section className="stack" aria-labelledby="schemas">
        <h2 id="schemas">Schemas</h2>
        {Object.entries(document.components.schemas as Record<string, Schema>).map(([name, schema]) => (
          <section key={name} id={`schema-${name}`} className="panel stack" aria-labelledby={`schema-heading-${name}`}>
            <h3 id={`schema-heading-${name}`} style={{ margin: 0 }}>
              {name}
            </h3>
            <p className="small" style={{ margin: 0 }}>
              <SchemaType schema={{ ...schema, $ref: undefined }} />
            </p>
            <Properties schema={schema} caption={`Fields of ${name}`} />
            <details>
              <summary className="small">JSON Schema</summary>
              <CodeBlock label={`JSON Schema of ${name}`} className="json-block">
                {JSON.stringify(schema, null, 2)}
              </CodeBlock>
            </details>
          </section>
        ))}
      </section>
    </main>
  );
}
