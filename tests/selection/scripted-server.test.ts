import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useScriptedServer } from "../support/scripted-server-lifecycle";

const start = useScriptedServer();

const chat = (url: string, body: object) =>
  fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify({ model: "scripted-model", messages: [{ role: "user", content: "hi" }], ...body }),
  });

/** The parsed `data:` payloads of an SSE body, with the final [DONE] kept as a string. */
async function events(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => block.slice("data: ".length))
    .map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

describe("scripted OpenAI-compatible server", () => {
  it("answers from a queue, records requests and lists models", async () => {
    const { url, requests, chatRequests } = await start([{ text: "hello" }, { json: { tools: [] } }]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const first = await (await chat(url, {})).json();
    expect(first.choices[0]).toMatchObject({ message: { role: "assistant", content: "hello" }, finish_reason: "stop" });
    const second = await (await chat(url, { response_format: { type: "json_object" } })).json();
    expect(JSON.parse(second.choices[0].message.content)).toEqual({ tools: [] });
    const third = await chat(url, {});
    expect(third.status).toBe(500);
    expect((await third.json()).error.message).toContain("no reply");

    const models = await (await fetch(`${url}/models`)).json();
    expect(models.data.map((model: { id: string }) => model.id)).toEqual(["scripted-model"]);
    expect(requests).toHaveLength(4);
    expect(requests[1].body?.response_format).toEqual({ type: "json_object" });
    expect(requests[0].authorization).toBe("Bearer test-key");
    expect(chatRequests).toHaveLength(3);
  });

  it("replies with tool calls and scripted failures", async () => {
    const { url } = await start([{ toolCalls: [{ name: "ToolSearch", arguments: { query: "weather" } }] }, { status: 503 }]);
    const withCall = await (await chat(url, {})).json();
    expect(withCall.choices[0].finish_reason).toBe("tool_calls");
    expect(withCall.choices[0].message.tool_calls[0]).toMatchObject({
      type: "function",
      function: { name: "ToolSearch", arguments: '{"query":"weather"}' },
    });
    const failed = await chat(url, {});
    expect(failed.status).toBe(503);
  });

  it("streams text and tool-call deltas as SSE", async () => {
    const { url } = await start([{ text: "two words" }, { toolCalls: [{ name: "get_weather", arguments: { city: "Lyon" } }] }]);
    const textEvents = await events(await chat(url, { stream: true, stream_options: { include_usage: true } }));
    expect(textEvents.at(-1)).toBe("[DONE]");
    const chunks = textEvents.slice(0, -1) as { choices: { delta: { content?: string }; finish_reason: string | null }[]; usage?: object }[];
    const text = chunks
      .flatMap((chunk) => chunk.choices)
      .map((choice) => choice.delta.content ?? "")
      .join("");
    expect(text).toBe("two words");
    expect(chunks.flatMap((chunk) => chunk.choices).at(-1)?.finish_reason).toBe("stop");
    expect(chunks.at(-1)?.usage).toBeDefined();

    const callEvents = (await events(await chat(url, { stream: true }))).slice(0, -1) as {
      choices: { delta: { tool_calls?: { function: { name?: string; arguments?: string } }[] }; finish_reason: string | null }[];
    }[];
    const deltas = callEvents.flatMap((chunk) => chunk.choices[0].delta.tool_calls ?? []);
    expect(deltas[0].function.name).toBe("get_weather");
    expect(deltas.map((delta) => delta.function.arguments ?? "").join("")).toBe('{"city":"Lyon"}');
    expect(callEvents.at(-1)?.choices[0].finish_reason).toBe("tool_calls");
  });

  it("matches rules before the queue, then falls back to `otherwise`", async () => {
    const { url } = await start({
      rules: [{ lastMessageContains: "weather", reply: { text: "rule" } }],
      replies: [{ text: "queued" }],
      otherwise: { text: "otherwise" },
    });
    const say = async (content: string) => (await (await chat(url, { messages: [{ role: "user", content }] })).json()).choices[0].message.content;
    expect(await say("hello")).toBe("queued");
    expect(await say("the weather?")).toBe("rule");
    expect(await say("hello")).toBe("otherwise");
  });

  it("drops a hung request when it closes", async () => {
    const server = await start([{ hang: true }]);
    const pending = chat(server.url, {}).then(
      () => "answered",
      () => "dropped",
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.close();
    expect(await pending).toBe("dropped");
  });

  it("runs from the command line with a script file and prints its URL", async () => {
    const directory = mkdtempSync(join(tmpdir(), "scripted-server-"));
    const scriptPath = join(directory, "script.json");
    writeFileSync(scriptPath, JSON.stringify([{ text: "from the CLI" }]));
    // One process (node with tsx's loader) rather than npx → tsx → node, so the kill reaches the server.
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/scripted-openai-server-cli.ts", scriptPath], {
      env: { ...process.env, PORT: "0" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let printed = "";
        child.stdout.on("data", (chunk: Buffer) => {
          printed += chunk.toString();
          if (printed.includes("\n")) resolve(printed.trim());
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const reply = await (await chat(url, {})).json();
      expect(reply.choices[0].message.content).toBe("from the CLI");
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    }
  });
});
