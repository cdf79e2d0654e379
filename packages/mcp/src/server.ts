// The MCP server: the generated tools over `@hosting-api/client`, on the SDK's low-level Server
// (the input schemas are the spec's JSON Schemas as they are, not zod).
import { createClient, type HostingApiClient, HostingApiError, operationMeta } from '@hosting-api/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import pkg from '../package.json' with { type: 'json' };
import { tools as allTools, title } from './generated/tools';
import type { ToolSpec } from './spec';

export type Env = Record<string, string | undefined>;

/** A mistake in the server's configuration: its message says what to fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface ServerOptions {
  /** List the destructive tools too (deletes, and what the spec calls irreversible). */
  allowDestructive?: boolean;
  /** Only the tools of these groups: an `x-client-method` or its prefix (`sites`, `sites.notes`, `alerts`). */
  groups?: readonly string[];
  /** The API base ending in /v1; default HOSTING_API_BASE_URL. */
  baseUrl?: string;
  /** The token service root; default HOSTING_API_AUTH_URL, else the base URL without /v1. */
  authUrl?: string;
  /** Where HOSTING_API_* come from; default process.env. */
  env?: Env;
}

/** Every group `--tools` accepts: each `x-client-method` prefix (`sites`, `sites.notes`, ...). */
export const groups = (): string[] => {
  const out = new Set<string>();
  for (const t of allTools) {
    const words = t.group.split('.');
    for (let n = 1; n < words.length; n++) out.add(words.slice(0, n).join('.'));
  }
  return [...out].sort();
};

/** The tools a server with these options lists. */
export function selectTools(options: Pick<ServerOptions, 'allowDestructive' | 'groups'> = {}): ToolSpec[] {
  if (options.groups?.length) {
    const known = new Set([...groups(), ...allTools.map((t) => t.group)]);
    const unknown = options.groups.filter((g) => !known.has(g));
    if (unknown.length)
      throw new ConfigError(`--tools: no group ${unknown.join(', ')}; the groups are ${groups().join(', ')}`);
  }
  return allTools.filter(
    (t) =>
      (options.allowDestructive || !t.destructive) &&
      (!options.groups?.length || options.groups.some((g) => t.group === g || t.group.startsWith(`${g}.`))),
  );
}

/** The MCP description of a tool: annotations from the method, the client's idempotency rule and the spec's semantics. */
export function describeTool(t: ToolSpec): Tool {
  const meta = operationMeta[t.name as keyof typeof operationMeta];
  const readOnly = t.method === 'GET' || t.method === 'HEAD';
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    annotations: {
      title: t.title,
      readOnlyHint: readOnly,
      destructiveHint: !readOnly && t.destructive,
      // GET, PUT, DELETE are safe to repeat unless the spec says otherwise (`x-idempotent`, toggles); POST is not.
      idempotentHint: readOnly || meta.idempotent,
      openWorldHint: true,
    },
  };
}

/** The client, from the options and HOSTING_API_* (the CLI's variables). */
export function clientFrom(options: ServerOptions): HostingApiClient {
  const env = options.env ?? process.env;
  const baseUrl = options.baseUrl ?? env.HOSTING_API_BASE_URL;
  if (!baseUrl)
    throw new ConfigError('no API address: pass --base-url or set HOSTING_API_BASE_URL (the base ending in /v1)');
  const authUrl = options.authUrl ?? env.HOSTING_API_AUTH_URL;
  for (const [flag, url] of [
    ['--base-url', baseUrl],
    ['--auth-url', authUrl],
  ] as const)
    if (url !== undefined && !/^https?:\/\/[^/]/.test(url))
      throw new ConfigError(`${flag} must be an http(s) URL (got ${JSON.stringify(url)})`);
  const clientId = env.HOSTING_API_CLIENT_ID;
  const clientSecret = env.HOSTING_API_CLIENT_SECRET;
  if (!clientId || !clientSecret)
    throw new ConfigError('no credentials: set HOSTING_API_CLIENT_ID and HOSTING_API_CLIENT_SECRET');
  return createClient({
    baseUrl,
    authUrl,
    clientId,
    clientSecret,
  });
}

type Method = (...args: unknown[]) => Promise<unknown>;
const methodOf = (client: HostingApiClient, group: string): Method =>
  group.split('.').reduce<unknown>((node, w) => (node as Record<string, unknown>)[w], client) as Method;

// The SDK validates with Ajv only for elicitation, which these tools never ask for; its default
// validator builds an Ajv instance (with formats) in the Server's constructor, a good part of the
// start-up. This one builds it on first use.
let ajv: AjvJsonSchemaValidator | undefined;
const lazyValidator = {
  getValidator: ((schema) => {
    ajv ??= new AjvJsonSchemaValidator();
    return ajv.getValidator(schema);
  }) as AjvJsonSchemaValidator['getValidator'],
};

const text = (value: unknown) => JSON.stringify(value, null, 2);

/** The error result of a call: the API's message and `errors` lines, with the status. */
function errorResult(error: unknown): CallToolResult {
  let message: string;
  if (error instanceof HostingApiError) {
    message = `${error.message}${error.status === undefined ? '' : ` (HTTP ${error.status})`}`;
    for (const line of error.errors ?? []) message += `\n- ${line}`;
  } else message = error instanceof Error ? error.message : String(error);
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** Calls the operation of a tool with the tool's arguments: path parameters first, the rest as the input object. */
export async function callTool(
  client: HostingApiClient,
  t: ToolSpec,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const meta = operationMeta[t.name as keyof typeof operationMeta];
  const integers = meta.integers ?? [];
  const positional = t.pathParams.map((name) => {
    const value = args[name];
    // A digit string for an integer path parameter is the same id (agents often quote ids).
    return integers.includes(name) && typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  });
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (!t.pathParams.includes(key)) input[key] = value;
  const hasInput = meta.query !== undefined || meta.body !== undefined;
  try {
    const result = (await methodOf(client, t.group)(...positional, ...(hasInput ? [input] : []), { raw: true })) as {
      message?: string;
      data?: unknown;
      page?: unknown;
    };
    const structured: Record<string, unknown> = { message: result.message, data: result.data ?? null };
    if (result.page !== undefined) structured.page = result.page;
    return { content: [{ type: 'text', text: text(structured) }], structuredContent: structured };
  } catch (error) {
    return errorResult(error);
  }
}

/** An MCP server with the selected tools. Its client gets a token on the first call only: listing needs no network. */
export function createServer(options: ServerOptions = {}): Server {
  const selected = selectTools(options);
  const byName = new Map(selected.map((t) => [t.name, t]));
  const listed = selected.map(describeTool);
  const client = clientFrom(options);
  const server = new Server(
    { name: 'hosting-api', title, version: pkg.version },
    {
      capabilities: { tools: {} },
      jsonSchemaValidator: lazyValidator,
      instructions:
        'Tools for the Hosting Platform Management API v1, one per operation, named by operationId. Ids are integers (site 123456). Destructive tools (deletes, restores) are listed only when the server runs with --allow-destructive.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const t = byName.get(request.params.name);
    if (!t) {
      const hidden = allTools.find((x) => x.name === request.params.name);
      return errorResult(
        new Error(
          hidden
            ? `${request.params.name} is not enabled on this server${hidden.destructive && !options.allowDestructive ? ' (destructive: start it with --allow-destructive)' : ' (see --tools)'}`
            : `no tool ${request.params.name}`,
        ),
      );
    }
    return callTool(client, t, request.params.arguments ?? {});
  });
  return server;
}
