// The MCP server: the generated tools over `@hosting-api/client`, on the SDK's low-level Server
// (the input schemas are the spec's JSON Schemas as they are, not zod).
import {
  createClient,
  type HostingApiClient,
  HostingApiError,
  operationMeta,
  resolveTarget,
} from '@hosting-api/client';
import { limitedFetch } from '@hosting-api/openapi/http';
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
  /** Only the operations that change nothing: a GET the spec states no effect for. */
  readOnly?: boolean;
  /** Only these toolsets: the spec's tags as slugs (`sites`, `backups-and-restores`, ...). */
  toolsets?: readonly string[];
  /** Three tools (search, describe, call) instead of one per operation, for hosts that cap the number of tools. */
  dynamic?: boolean;
  /** The API client to use: one for the whole server, so that its token is reused (default: one from the options). */
  client?: HostingApiClient;
}

/** Every toolset `--toolsets` accepts: the spec's tags, as slugs. */
export const toolsets = (): string[] => [...new Set(allTools.map((t) => t.toolset))].sort();

// Read-only: the spec model's one rule (a safe method and no stated effect: not the SSH disconnect GET).
const isReadOnly = (t: ToolSpec) => t.safe;

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
export function selectTools(
  options: Pick<ServerOptions, 'allowDestructive' | 'groups' | 'readOnly' | 'toolsets'> = {},
): ToolSpec[] {
  if (options.toolsets?.length) {
    const unknown = options.toolsets.filter((g) => !toolsets().includes(g));
    if (unknown.length)
      throw new ConfigError(`--toolsets: no toolset ${unknown.join(', ')}; the toolsets are ${toolsets().join(', ')}`);
  }
  if (options.groups?.length) {
    const known = new Set([...groups(), ...allTools.map((t) => t.group)]);
    const unknown = options.groups.filter((g) => !known.has(g));
    if (unknown.length)
      throw new ConfigError(`--tools: no group ${unknown.join(', ')}; the groups are ${groups().join(', ')}`);
  }
  return allTools.filter(
    (t) =>
      (options.allowDestructive || !t.destructive) &&
      (!options.readOnly || isReadOnly(t)) &&
      (!options.toolsets?.length || options.toolsets.includes(t.toolset)) &&
      (!options.groups?.length || options.groups.some((g) => t.group === g || t.group.startsWith(`${g}.`))),
  );
}

/** The MCP description of a tool: annotations from the method, the client's idempotency rule and the spec's semantics. */
export function describeTool(t: ToolSpec): Tool {
  const meta = operationMeta[t.name as keyof typeof operationMeta];
  const readOnly = isReadOnly(t);
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

/** The largest API answer a tool reads: 32 MiB. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The client, from the options and HOSTING_API_* (the CLI's variables). */
export function clientFrom(options: ServerOptions): HostingApiClient {
  if (options.client) return options.client;
  const env = options.env ?? process.env;
  const baseUrl = options.baseUrl ?? env.HOSTING_API_BASE_URL;
  if (!baseUrl)
    throw new ConfigError('no API address: pass --base-url or set HOSTING_API_BASE_URL (the base ending in /v1)');
  let target: { baseUrl: string; authUrl: string };
  try {
    // The one reading of an address the client, the CLI and the contract gate share.
    target = resolveTarget({ baseUrl, authUrl: options.authUrl ?? env.HOSTING_API_AUTH_URL });
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const clientId = env.HOSTING_API_CLIENT_ID;
  const clientSecret = env.HOSTING_API_CLIENT_SECRET;
  if (!clientId || !clientSecret)
    throw new ConfigError('no credentials: set HOSTING_API_CLIENT_ID and HOSTING_API_CLIENT_SECRET');
  // The API's answers through the repository's one reader: at most MAX_ANSWER_BYTES each, no redirect followed.
  return createClient({
    ...target,
    clientId,
    clientSecret,
    fetch: limitedFetch({ maxBytes: MAX_ANSWER_BYTES }),
    maxResponseBytes: MAX_ANSWER_BYTES,
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

/**
 * Calls the operation of a tool with the tool's arguments: path parameters first, the rest as the
 * input object. A missing argument, or a path id that is not an integer, is an error naming the
 * tool (`as`, for `call_operation`) and the argument.
 */
export async function callTool(
  client: HostingApiClient,
  t: ToolSpec,
  args: Record<string, unknown>,
  as = t.name,
): Promise<CallToolResult> {
  const meta = operationMeta[t.name as keyof typeof operationMeta];
  const integers = meta.integers ?? [];
  const required = t.inputSchema.required ?? [];
  const missing = required.filter((name) => args[name] === undefined);
  if (missing.length)
    return errorResult(
      new Error(
        `${as}: missing argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (required: ${required.join(', ')})`,
      ),
    );
  const positional = t.pathParams.map((name) => {
    const value = args[name];
    // A digit string for an integer path parameter is the same id (agents often quote ids).
    return integers.includes(name) && typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  });
  const notInteger = t.pathParams.find((name, i) => integers.includes(name) && !Number.isInteger(positional[i]));
  if (notInteger)
    return errorResult(
      new Error(`${as}: argument ${notInteger} must be an integer (got ${JSON.stringify(args[notInteger])})`),
    );
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

/** Why a tool is not callable on this server, or undefined when it is. */
function refusal(name: string, options: ServerOptions, enabled: Map<string, ToolSpec>): string | undefined {
  if (enabled.has(name)) return undefined;
  const hidden = allTools.find((x) => x.name === name);
  if (!hidden) return `no tool ${name}`;
  if (hidden.destructive && !options.allowDestructive)
    return `${name} is not enabled on this server (destructive: start it with --allow-destructive)`;
  if (options.readOnly && !isReadOnly(hidden))
    return `${name} is not enabled on this server (it changes something: --read-only)`;
  return `${name} is not enabled on this server (see --toolsets and --tools)`;
}

/**
 * The three tools of `--dynamic`: they reach every operation the options enable, through one short
 * list. `call_operation`'s hints are those of the operations it can call: under `--read-only` it
 * only reads, and it is destructive only when a destructive operation is enabled.
 */
export function dynamicTools(enabled: readonly ToolSpec[]): Tool[] {
  const hints = enabled.map((t) => describeTool(t).annotations!);
  return [
    {
      name: 'search_operations',
      description:
        'Search the API operations by words of their name, summary, path or toolset. Answers name, method, path, summary and whether it is destructive.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'words to match; empty lists all' },
          toolset: { type: 'string', description: 'only this toolset (a spec tag slug, e.g. sites)' },
        },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'describe_operation',
      description: 'The description and input schema of one operation (by the name search_operations answers).',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'call_operation',
      description: `Call one operation with arguments matching its input schema (see describe_operation). ${
        hints.every((h) => h.readOnlyHint)
          ? 'This server calls only the operations that change nothing (--read-only).'
          : 'Destructive operations need the server started with --allow-destructive.'
      }`,
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, arguments: { type: 'object' } },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: {
        readOnlyHint: hints.every((h) => h.readOnlyHint),
        destructiveHint: hints.some((h) => h.destructiveHint),
        idempotentHint: hints.every((h) => h.idempotentHint),
        openWorldHint: true,
      },
    },
  ];
}

const ok = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: text(value) }],
  structuredContent: value as Record<string, unknown>,
});

async function callDynamic(
  client: HostingApiClient,
  options: ServerOptions,
  enabled: Map<string, ToolSpec>,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const known = (n: unknown) => allTools.find((t) => t.name === n);
  if ((name === 'describe_operation' || name === 'call_operation') && args.name === undefined)
    return errorResult(new Error(`${name}: missing argument name (required: name)`));
  if (name === 'search_operations') {
    const words = String(args.query ?? '')
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean);
    const found = allTools.filter((t) => {
      const hay = `${t.name} ${t.title} ${t.method} ${t.description} ${t.toolset}`.toLowerCase();
      return (!args.toolset || t.toolset === args.toolset) && words.every((w) => hay.includes(w));
    });
    return ok({
      operations: found.map((t) => ({
        name: t.name,
        method: t.method,
        summary: t.title,
        toolset: t.toolset,
        destructive: t.destructive,
        enabled: enabled.has(t.name),
      })),
    });
  }
  if (name === 'describe_operation') {
    const t = known(args.name);
    if (!t) return errorResult(new Error(`no operation ${String(args.name)}: see search_operations`));
    return ok({ name: t.name, description: t.description, inputSchema: t.inputSchema, destructive: t.destructive });
  }
  if (name === 'call_operation') {
    const why = refusal(String(args.name), options, enabled);
    if (why) return errorResult(new Error(why));
    const t = enabled.get(String(args.name))!;
    return callTool(client, t, (args.arguments ?? {}) as Record<string, unknown>, `call_operation ${t.name}`);
  }
  return errorResult(
    new Error(
      `no tool ${name}: this server runs with --dynamic (search_operations, describe_operation, call_operation)`,
    ),
  );
}

/** An MCP server with the selected tools. Its client gets a token on the first call only: listing needs no network. */
export function createServer(options: ServerOptions = {}): Server {
  const selected = selectTools(options);
  const byName = new Map(selected.map((t) => [t.name, t]));
  const listed = options.dynamic ? dynamicTools(selected) : selected.map(describeTool);
  const client = clientFrom(options);
  const server = new Server(
    { name: 'hosting-api', title, version: pkg.version },
    {
      capabilities: { tools: {} },
      jsonSchemaValidator: lazyValidator,
      instructions: options.dynamic
        ? 'Tools for the Hosting Platform Management API v1: search_operations finds an operation, describe_operation gives its input schema, call_operation calls it. Ids are integers (site 123456).'
        : 'Tools for the Hosting Platform Management API v1, one per operation, named by operationId. Ids are integers (site 123456). Destructive tools (deletes, restores) are listed only when the server runs with --allow-destructive.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    if (options.dynamic) return callDynamic(client, options, byName, request.params.name, args);
    const why = refusal(request.params.name, options, byName);
    if (why) return errorResult(new Error(why));
    return callTool(client, byName.get(request.params.name)!, args);
  });
  return server;
}
