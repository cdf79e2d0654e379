// A command's call of the client, and the read a destructive command shows before asking.
import type { HostingApiClient } from '@hosting-api/client';
import { operations } from './generated/operations';
import type { CommandSpec } from './spec';

/** The commands of the spec by operationId. */
export const byId: ReadonlyMap<string, CommandSpec> = new Map(operations.map((o) => [o.id, o]));

export type Method = (...args: unknown[]) => Promise<unknown>;

/** The client method of a command (`mu-plugins list` → `client.muPlugins.list`). */
export const methodOf = (client: HostingApiClient, op: CommandSpec): Method =>
  op.clientMethod.split('.').reduce<unknown>((node, w) => (node as Record<string, unknown>)[w], client) as Method;

/**
 * The read of what a destructive command acts on (`preview`: the spec model's read of its subject),
 * as a call with the command's own path arguments; undefined where the spec has no such read.
 */
export function previewOf(
  op: CommandSpec,
  args: readonly unknown[],
  client: HostingApiClient,
  byId: ReadonlyMap<string, CommandSpec>,
): (() => Promise<unknown>) | undefined {
  const read = op.preview ? byId.get(op.preview) : undefined;
  return (
    read && (() => methodOf(client, read)(...read.args.map((a) => args[op.args.findIndex((x) => x.name === a.name)])))
  );
}
