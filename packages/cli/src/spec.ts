// Types of the command table that generators/cli/commands.mjs writes from the spec (src/generated/operations.ts).

export type ScalarType = 'string' | 'integer' | 'number' | 'boolean';

/** How a flag's value is read: one scalar, one of several scalar types, a list of scalars, or JSON. */
export type FieldType =
  | {
      kind: 'scalar';
      type: ScalarType;
      nullable?: boolean;
      enum?: (string | number | boolean)[];
      minimum?: number;
      maximum?: number;
    }
  | { kind: 'union'; types: ScalarType[]; nullable?: boolean }
  | { kind: 'array'; items: Extract<FieldType, { kind: 'scalar' }> }
  | { kind: 'json' };

/** A query parameter or a body field, offered as `--<name>` (the spec's name, exactly). */
export type FieldSpec = FieldType & {
  name: string;
  in: 'query' | 'body';
  required: boolean;
  description: string;
};

export interface ArgumentSpec {
  name: string;
  type: 'integer' | 'string';
  description: string;
}

/** How `--wait` follows a write: re-read with `read` while `field` keeps the value the write answered. */
export interface WaitRule {
  read: string;
  field: string;
  /** The read's path parameter that takes the answered `id` (a POST that creates); else the write's own path parameters. */
  idParam?: string;
  /** A 404 from the read ends the wait (the resource is gone: a DELETE). */
  gone: boolean;
}

export interface CommandSpec {
  id: string;
  /** The command's words: the `x-client-method`'s, kebab-case (`muPlugins.list` → `['mu-plugins', 'list']`). */
  words: string[];
  /** The `x-client-method`: the client's method (`muPlugins.list`); its words are the commands' hidden aliases. */
  clientMethod: string;
  method: string;
  path: string;
  /** The spec's tag (its section of the documentation). */
  tag: string;
  summary: string;
  description: string;
  args: ArgumentSpec[];
  options: FieldSpec[];
  body?: { encoding: 'json' | 'form'; required: boolean; description: string };
  /** The properties of a list item, in the spec's order (table columns). */
  columns?: string[];
  wait?: WaitRule;
  /** Loses data or cannot be undone (the spec model's list): asks on a terminal, needs --yes elsewhere. */
  destructive?: boolean;
  /** A GET the spec states an effect for (`x-effects`: not safe), in words (`terminated: SSH connections`): asks like a destructive one. */
  effect?: string;
  /** The read (operationId) that shows what a destructive command acts on, before it asks. */
  preview?: string;
}
