// Types of the tool table that generators/mcp/tools.mjs writes from the spec (src/generated/tools.ts).

/** A JSON Schema from the spec (dereferenced). */
export type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  /** The operationId. */
  name: string;
  /** The spec's summary. */
  title: string;
  /** Summary, description, method and path. */
  description: string;
  method: string;
  /** The `x-client-method` (`sites.notes.list`): the client method that calls it, and its group for `--tools`. */
  group: string;
  /** The spec's tag as a slug (`backups-and-restores`): its toolset for `--toolsets`. */
  toolset: string;
  /** Path parameters in path order: the client method's leading arguments. */
  pathParams: string[];
  /** Deletes something, or the spec calls it irreversible: listed only with `allowDestructive`. */
  destructive: boolean;
  /** A safe method with no effect in the spec (the spec model's `safe`): listed by `--read-only`, `readOnlyHint`. */
  safe: boolean;
  inputSchema: {
    type: 'object';
    properties: Record<string, JsonSchema>;
    required?: string[];
    additionalProperties: false;
  };
}
