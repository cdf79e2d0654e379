// Types of @hosting-api/openapi/model (index.js). Spec objects are plain JSON: typed loosely.
/* biome-ignore-all lint/suspicious/noExplicitAny: spec nodes are arbitrary JSON */
export type Json = any;
export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';

export { resolveTarget, TargetError, VERSION_PATH } from './target.js';
/** The path parameters of a path template, in order (`/sites/{site_id}/notes/{id}` → `site_id`, `id`). */
export declare function pathParams(path: string): string[];
/** The schema of `data` in an operation's success answer (JSON), if any. */
export declare function dataSchema(operation: Operation): Json;

/** How the state a write answers is followed: re-read with `read` while `field` keeps its value. */
export interface StateFollow {
  read: string;
  field: string;
  /** The read's path parameter that takes the new resource's `id` (a POST); undefined for a DELETE. */
  idParam: string | undefined;
  /** A DELETE: a 404 from the read ends the wait. */
  gone: boolean;
}
/** Every DELETE, and any operation marked `x-destructive: true`; `x-destructive: false` wins over the method. */
export declare function isDestructive(operation: Json, method: string): boolean;

export declare const METHODS: readonly Method[];
/** get, head, options, trace: the methods that ask only to read. */
export declare const SAFE_METHODS: readonly Method[];
/** A safe method and no `x-effects`: what read-only tools may send (CONVENTIONS.md, "Safe"). */
export declare function isSafe(operation: Json, method: string): boolean;

export interface Operation {
  operationId: string;
  /** Lower-case, as the spec spells it. */
  method: Method;
  /** The spec's path template, e.g. `/sites/{site_id}/notes`. */
  path: string;
  tags: string[];
  summary: string;
  /** Loses data or cannot be undone: a DELETE, or `x-destructive: true` (see isDestructive). */
  destructive: boolean;
  /** A safe method with no `x-effects` (see isSafe): read-only tools send only these. */
  safe: boolean;
  /** `x-client-method`, e.g. `sites.notes.list`. */
  clientMethod: string | undefined;
  /** The operationId of the read of the thing this operation acts on (model/follow.js), if the spec has one. */
  subjectRead: string | undefined;
  /** How the state this write answers is followed (model/follow.js): the CLI's `--wait`. */
  stateFollow: StateFollow | undefined;
  /** The effective security requirements (the operation's, else the document's). */
  security: Record<string, string[]>[];
  /** false for `security: []` (the token operations). */
  requiresToken: boolean;
  /** Every scope the effective requirements name (e.g. `authorized`, `owner`). */
  scopes: string[];
  /** The first 2xx status. */
  successStatus: number | undefined;
  /** Path-item and operation parameters, dereferenced; the operation's win. */
  parameters: Json[];
  requestBody: Json | undefined;
  requestBodyRequired: boolean;
  requestMediaTypes: string[];
  /** Dereferenced responses by status. */
  responses: Record<string, Json>;
  /** Media types of each response by status (`{'200': ['application/json']}`). */
  responseMediaTypes: Record<string, string[]>;
  /** The effective servers (the operation's, the path item's, else the document's). */
  servers: Json[];
  /** The first effective server's URL, variables at their defaults, without a trailing `/`. */
  baseUrl: string;
  /** Served from servers of its own, not the document's `/v1` base: the token operations. */
  outsideV1: boolean;
  /** The dereferenced operation object. */
  operation: Json;
  /** The operation object and its path item as in the bundle (`$ref`s kept). */
  bundled: Json;
  bundledPathItem: Json;
  /** A list's statements (`x-list`): where its items are, its order (or one silent statement), filters, search, paging. */
  list?: {
    items: string;
    order: Statement | Statement[];
    filters: Statement[];
    search?: Statement;
    paging?: Statement;
  };
  /** A write's effects on reads (`x-effects`); one statement of kind `effect` with `silent` where none is stated. */
  effects?: Statement[];
  /** A write's state transition (`x-state`, kind `state`; `silent` where the states table states none). */
  state?: Statement;
  /**
   * The rules of its JSON request body's fields (CONVENTIONS.md, "Field rules"): one per field and
   * keyword (`enum`, `pattern`, `minLength`, `maxLength`, `minimum`, `maximum`) or extension
   * (`values-from`: `listing`, `listField`; `special`: `value`, `says`; `free-text`).
   */
  rules: FieldRule[];
  /** The links of its success response: which operation its answer feeds, with which parameters. */
  links: { name: string; operationId: string; parameters: Record<string, string>; source: string }[];
}

/**
 * A behaviour statement (CONVENTIONS.md, "Behaviour statements"): its kind (`order`, `filter`,
 * `search`, `paging`, `created`, `updated`, `deleted`, `set`, `toggle`, `queued`, `credentials`,
 * `revoked`, `unit`, or `order`/`effect` with `silent`), what it states (its fields as written),
 * its JSON pointer in the bundle and its source, `spec/<file>:<line>`.
 */
export interface Statement {
  kind: string;
  operationId?: string;
  silent?: boolean;
  pointer: string;
  source: string;
  [field: string]: Json;
}

/** A rule of a request field: `value` is the keyword's value (the enum, the pattern, the bound) or the special value. */
export interface FieldRule extends Statement {
  kind: 'rule';
  operationId: string;
  rule: string;
  field: string;
  /** The field's dereferenced schema. */
  schema: Json;
}

export interface SpecModel {
  /** The bundled document as read (`$ref`s kept). Do not modify. */
  document: Json;
  /** The same document dereferenced by openapi-core (shared objects; do not modify). */
  dereferenced: Json;
  operations: Operation[];
  /**
   * A node of the bundled document with its local `$ref`s followed (those inside it kept), for
   * code that needs component names; everything else reads the dereferenced objects.
   */
  follow(node: Json): Json;
  /** The component name a `$ref` node points at (`#/components/schemas/Note` → `Note`). */
  refName(node: Json): string | undefined;
  /** The operation with this operationId; throws if there is none. */
  operation(operationId: string): Operation;
  /** The document's first server, e.g. `https://api.hosting.invalid/v1`. */
  apiUrl: string;
  /** The token operations' server (the auth root), e.g. `https://auth.hosting.invalid`. */
  authUrl: string | undefined;
  /** Operations served outside `/v1` (`createAccessToken`, `revokeAccessToken`). */
  tokenOperations: Operation[];
  /** The destructive operations (`destructive`): what the CLI confirms and the MCP server hides by default. */
  destructiveOperations: Operation[];
  /** The safe operations (`safe`): what a read-only gate run sends and MCP `--read-only` lists. */
  safeOperations: Operation[];
  /**
   * The token operation that issues tokens (`createAccessToken`): its form body requires
   * `grant_type` and allows `client_credentials` (the OAuth 2 client-credentials grant).
   */
  issueTokenOperation: Operation | undefined;
  /** The token operation that revokes a token (`revokeAccessToken`): its form body requires `token`. */
  revokeTokenOperation: Operation | undefined;
  /** Their paths (`/auth/token`, `/auth/revoke`). */
  authPaths: string[];
  /** `message` of each shared response's example, by component name (`NotFound` → `We could not ...`). */
  messages: Record<string, string>;
  /** The `message` of a success (the `Message` schema's example: `Success`). */
  successMessage: string | undefined;
  /** Every behaviour statement of the document. */
  statements: Statement[];
  /** The statement written at a JSON pointer of the bundle (an `x-unit` node, ...). */
  statementAt(pointer: string): Statement | undefined;
  /** The unit the document states for values of a format (`date-time` → `utc-milliseconds`). */
  unitOfFormat(format: string): Statement | undefined;
}

/** Path of this package's bundled spec (`dist/openapi.json`). */
export declare function specPath(): string;
/** A server's URL with its variables at their defaults, without a trailing `/`. */
export declare function serverUrl(server: Json): string;
/** Reads a bundled spec (JSON or YAML file, default `specPath()`, or a document) and dereferences it. */
export declare function loadModel(source?: string | Json): Promise<SpecModel>;
/** The model of a bundled document and its dereferenced copy (what loadModel does after reading); `sources` maps statement pointers to `spec/<file>:<line>`. */
export declare function buildModel(document: Json, dereferenced: Json, sources?: Record<string, string>): SpecModel;
