// The e2e tier's MCP client from outside the project: the official
// TypeScript SDK starts `kubectl backoff mcp ...` on stdio, lists its tools,
// and calls the tools the plan names. It prints one JSON object on stdout
// (the tools' names and each call's structuredContent, isError and text)
// for the Go test to assert on; the server's stderr passes through.
//
//   node client.mjs '{"command":"kubectl","args":["backoff","mcp",...],"calls":[{"name":"keys","arguments":{...}}]}'
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const plan = JSON.parse(process.argv[2]);
const transport = new StdioClientTransport({
  command: plan.command,
  args: plan.args,
  env: process.env, // PATH with the plugin, KUBECONFIG
  stderr: "inherit",
});
const client = new Client({ name: "e2e-typescript-client", version: "1.0.0" });
await client.connect(transport);
const out = { server: client.getServerVersion(), tools: [], calls: [] };
const { tools } = await client.listTools();
for (const t of tools) {
  out.tools.push({ name: t.name, hasOutputSchema: !!t.outputSchema });
}
for (const c of plan.calls) {
  // The SDK checks structuredContent against the tool's output schema.
  const res = await client.callTool({ name: c.name, arguments: c.arguments });
  out.calls.push({
    name: c.name,
    isError: !!res.isError,
    structured: res.structuredContent ?? null,
    text: (res.content ?? []).filter((x) => x.type === "text").map((x) => x.text).join("\n"),
  });
}
await client.close();
process.stdout.write(JSON.stringify(out));
