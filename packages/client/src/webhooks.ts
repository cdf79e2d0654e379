// Receiving webhook deliveries: parse one against the spec's schema of its event (from
// @hosting-api/schemas, the optional package `validate: true` uses) and tell a repeat from a first
// delivery. The API documentation says `git_deploy_completed` "may be delivered more than once per
// deploy": a receiver must not act twice on one delivery.
//
// The event's name is the `x-hosting-event` header (or `event` given), its identity the
// `x-hosting-delivery` header (or `id` given): the sandbox sends both; the documentation does not
// show the real service's delivery headers, so both can be given explicitly.
import type { SchemaLike } from './runtime/validate';

/** Payload schemas keyed by event name (`git_deploy_completed`), or a loader of them. */
export type WebhookSchemaSource = Record<string, SchemaLike> | (() => Promise<Record<string, SchemaLike>>);

export interface WebhookDeliveryInput {
  /** The request's headers (a fetch Headers, or Node's `req.headers`). */
  headers?: Headers | Record<string, string | string[] | undefined>;
  /** The request's body: its text, its bytes, or the parsed JSON. */
  body: string | Uint8Array | unknown;
  /** The event's name when no `x-hosting-event` header says it. */
  event?: string;
  /** The delivery's identity when no `x-hosting-delivery` header says it. */
  id?: string;
}

export interface ReceivedWebhook<T = unknown> {
  event: string;
  /** The payload, valid against the event's schema. */
  payload: T;
  /** The delivery's identity (null when none was given: a repeat cannot be told then). */
  deliveryId: string | null;
  /** true when a delivery with this identity was received before (act on the first one only). */
  repeat: boolean;
}

export class WebhookDeliveryError extends Error {
  constructor(
    message: string,
    readonly issues: string[] = [],
  ) {
    super(message);
    this.name = 'WebhookDeliveryError';
  }
}

export interface WebhookReceiverOptions {
  /** Schemas of the payloads (default: loaded from @hosting-api/schemas, `<Event>Event` exports). */
  schemas?: WebhookSchemaSource;
  /** How many delivery ids to remember (the oldest are forgotten). Default 10,000. */
  remember?: number;
}

export interface WebhookReceiver {
  /** Parses and checks one delivery; throws WebhookDeliveryError when it is not a valid one. */
  receive<T = unknown>(delivery: WebhookDeliveryInput): Promise<ReceivedWebhook<T>>;
}

/** `git_deploy_completed` → `GitDeployCompletedEvent` (the schema's name in @hosting-api/schemas). */
export const webhookSchemaName = (event: string) =>
  `${event
    .split(/[_-]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Event`;

const PACKAGE = '@hosting-api/schemas';

async function defaultSchemas(): Promise<Record<string, SchemaLike>> {
  try {
    const mod = (await import(/* @vite-ignore */ PACKAGE)) as Record<string, unknown>;
    const found: Record<string, SchemaLike> = {};
    return new Proxy(found, {
      get: (_t, event) => (typeof event === 'string' ? (mod[webhookSchemaName(event)] as SchemaLike) : undefined),
    });
  } catch (err) {
    throw new Error(
      `a webhook receiver needs the optional package ${PACKAGE} (or the schemas option): ${(err as Error).message}`,
    );
  }
}

function header(headers: WebhookDeliveryInput['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

export function createWebhookReceiver(options: WebhookReceiverOptions = {}): WebhookReceiver {
  const limit = options.remember ?? 10_000;
  const seen = new Set<string>();
  let schemas: Promise<Record<string, SchemaLike>> | undefined;
  const load = () => {
    const source = options.schemas;
    schemas ??= typeof source === 'function' ? source() : source ? Promise.resolve(source) : defaultSchemas();
    return schemas;
  };
  return {
    async receive<T>(delivery: WebhookDeliveryInput): Promise<ReceivedWebhook<T>> {
      const event = header(delivery.headers, 'x-hosting-event') ?? delivery.event;
      if (!event) throw new WebhookDeliveryError('a webhook delivery names its event (x-hosting-event header)');
      const schema = (await load())[event];
      if (!schema || typeof schema.safeParse !== 'function') {
        throw new WebhookDeliveryError(`${event} is not a webhook event of the API`);
      }
      let payload: unknown = delivery.body;
      if (typeof payload === 'string' || payload instanceof Uint8Array) {
        const text = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
        try {
          payload = JSON.parse(text);
        } catch (err) {
          throw new WebhookDeliveryError(`${event}: the body is not JSON (${(err as Error).message})`);
        }
      }
      const result = schema.safeParse(payload);
      if (!result.success) {
        const issues = result.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
        throw new WebhookDeliveryError(`${event}: the payload does not match the API's schema`, issues);
      }
      const deliveryId = header(delivery.headers, 'x-hosting-delivery') ?? delivery.id ?? null;
      let repeat = false;
      if (deliveryId !== null) {
        repeat = seen.has(deliveryId);
        if (!repeat) {
          seen.add(deliveryId);
          if (seen.size > limit) seen.delete(seen.values().next().value as string);
        }
      }
      return { event, payload: payload as T, deliveryId, repeat };
    },
  };
}
