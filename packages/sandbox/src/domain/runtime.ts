// The running sandbox's moving parts, shared by the server, the control routes and the area
// handlers: state, virtual clock, tokens, webhook deliveries and the side-effect writers
// (activity log, alerts, queued work).
import type { IncomingMessage } from 'node:http';
import { StateBudget } from './budget.js';
import { Clock } from './clock.js';
import { Outcomes } from './outcomes.js';
import { type ActivityRecord, type AlertRecord, nextId, type SandboxState } from './state.js';
import { type ClientConfig, TokenStore } from './tokens.js';
import type { Schema } from './types.js';

/** Virtual durations of queued work (milliseconds). Tests advance the clock past them. */
export const DURATIONS = {
  siteDeploy: 30_000,
  siteClone: 60_000,
  ondemandBackup: 20_000,
  ondemandBackupDelete: 10_000,
  gitDeploy: 15_000,
  restore: 45_000,
  queuedToggle: 5_000,
  pluginChange: 10_000,
  muPluginChange: 10_000,
  collaboratorBatch: 5_000,
} as const;

/** Days the activity log keeps (part 8: account log 60 days, site log 30: the longer of the two). */
export const ACTIVITY_RETENTION_DAYS = 60;
/** Most activity entries kept, whatever their age (a frozen clock never ages them). */
export const ACTIVITY_LIMIT = 10_000;
/**
 * Most characters of text the activity log keeps (messages, descriptions, user agents, summed),
 * whatever the number of entries: past it the oldest go, as past ACTIVITY_LIMIT.
 */
export const ACTIVITY_TEXT_LIMIT = 4 * 1024 * 1024;
/** Most characters of one retained text of an entry (a note's subject quoted in a message, a user agent). */
export const ACTIVITY_FIELD_LIMIT = 1_000;
/**
 * Most alerts kept (the oldest go first): the sandbox publishes them itself, also on writes that
 * send no body (which the state's size limit never refuses). Their texts are cut as the log's are.
 */
export const ALERT_LIMIT = 1_000;
/** Most webhook deliveries kept for GET /__sandbox/webhooks (the oldest go first). */
export const WEBHOOK_RECORD_LIMIT = 1_000;
/** Most characters of payload (as JSON) the recorded webhook deliveries keep together (the oldest go first). */
export const WEBHOOK_TEXT_LIMIT = 4 * 1024 * 1024;

export interface WebhookDelivery {
  /** The delivery's identity: a repeated delivery (more than once per deploy, part 6) keeps it. */
  id: number;
  /** Numbers every record, repeats included, never reused (`hosting-api webhooks listen` reads from it). */
  seq: number;
  event: string;
  payload: unknown;
  /** Virtual time the event was emitted. */
  emittedAt: string;
  url: string | null;
  /** HTTP status from the receiver, `error` text if delivery failed, null when no URL is set. */
  status: number | null;
  error?: string;
}

export interface RuntimeOptions {
  clients: ClientConfig[];
  /** The state to start from and to reset to; gets the virtual now (epoch ms). */
  seed: (now: number) => SandboxState;
  start: number;
  speed: number;
  webhookUrl: string | null;
  /** Most activity entries kept (the oldest go first); default ACTIVITY_LIMIT. */
  activityLimit?: number;
  /** Most size of state clients can store (budget.ts); default STATE_SIZE_LIMIT. */
  stateLimit?: number;
  onError: (message: string, error: unknown) => void;
}

export interface ActivityInput {
  name: string;
  description: string;
  message: string;
  siteId?: number | null;
  /** The request that caused it (ip address, user agent); omitted for system work. */
  request?: Pick<IncomingMessage, 'socket' | 'headers'>;
}

export interface AlertInput {
  type: string;
  category: Schema<'AlertCategory'>;
  title: string;
  message: string;
  icon?: string;
  siteId?: number | null;
  actions?: Schema<'AlertAction'>[];
  severity?: string;
}

/** The text an activity entry retains, in characters. */
const textOf = (e: ActivityRecord) => e.message.length + e.description.length + e.userAgent.length;

/**
 * A retained text at most ACTIVITY_FIELD_LIMIT characters long (cut with `…`). The cut is copied:
 * a slice of a long string keeps the whole string alive in V8.
 */
export function capped(text: string): string {
  if (text.length <= ACTIVITY_FIELD_LIMIT) return text;
  return `${text.slice(0, ACTIVITY_FIELD_LIMIT - 1)}… `.slice(0, -1);
}

export class SandboxRuntime {
  state: SandboxState;
  readonly clock: Clock;
  readonly tokens: TokenStore;
  webhooks: WebhookDelivery[] = [];
  private webhookSeq = 1;
  private recordSeq = 1;
  /** The state's size limit (budget.ts): writes are admitted through it. */
  readonly budget: StateBudget;
  /** Documented outcomes armed on demand (outcomes.ts). */
  readonly outcomes = new Outcomes();
  private activityWrites = 0;
  /** Payload sizes of the recorded deliveries, and their sum for `countedWebhooks`. */
  private readonly payloadSizes = new WeakMap<WebhookDelivery, number>();
  private webhookText = 0;
  private countedWebhooks: WebhookDelivery[] | undefined;
  /** Characters of text in `countedLog` (the activity log they were counted for). */
  private activityText = 0;
  private countedLog: ActivityRecord[] | undefined;
  /** Webhook deliveries in flight, so `stop()` and tests can wait for them. */
  readonly inflight = new Set<Promise<void>>();
  /** What else a reset clears (the server's transport faults: onReset). */
  private readonly resetHooks: (() => void)[] = [];

  constructor(private readonly options: RuntimeOptions) {
    this.clock = new Clock(options.start, options.speed, (label, error) =>
      options.onError(`scheduled task "${label}" failed`, error),
    );
    this.tokens = new TokenStore(options.clients);
    this.budget = new StateBudget(() => this.clock.pending().length, options.stateLimit);
    this.state = options.seed(this.clock.now());
  }

  /**
   * Back to the seed state (the built-in seed is rebuilt relative to the current virtual time);
   * queued work, recorded webhooks, armed outcomes and transport faults are dropped; the clock
   * keeps running and tokens stay valid.
   */
  reset(state?: SandboxState): void {
    this.clock.clearTasks();
    this.state = state ?? this.options.seed(this.clock.now());
    this.webhooks = [];
    this.outcomes.clear();
    for (const hook of this.resetHooks) hook();
  }

  /** Runs `hook` on every reset (the server clears its transport faults). */
  onReset(hook: () => void): void {
    this.resetHooks.push(hook);
  }

  get webhookUrl(): string | null {
    return this.options.webhookUrl;
  }

  /** Writes an activity log entry with source `api.v1` (or `systems` without a request). */
  logActivity(input: ActivityInput): ActivityRecord {
    const entry: ActivityRecord = {
      id: nextId(this.state, 'activity'),
      timestamp: this.clock.nowIso(),
      accountEmail: this.state.account.email,
      ipAddress: input.request ? (input.request.socket.remoteAddress ?? null) : null,
      userAgent: capped(input.request?.headers['user-agent'] ?? ''),
      name: input.name,
      description: capped(input.description),
      source: input.request ? 'api.v1' : 'systems',
      message: capped(input.message),
      siteId: input.siteId ?? null,
    };
    const log = this.countedActivity();
    log.push(entry);
    this.activityText += textOf(entry);
    const limit = this.options.activityLimit ?? ACTIVITY_LIMIT;
    // Retention on the sandbox clock, checked every 256 writes; past a limit (entries or text) the
    // oldest tenth goes at once (so the work is spread: one pass per 256 writes or per tenth of it).
    if ((++this.activityWrites & 255) === 0 || log.length > limit || this.activityText > ACTIVITY_TEXT_LIMIT)
      this.trimActivity(limit);
    return entry;
  }

  /** Characters of text the activity log holds (messages, descriptions, user agents). */
  get activityTextSize(): number {
    this.countedActivity();
    return this.activityText;
  }

  /** The activity log, its text counted: a reset or a replaced state (PUT, PATCH) brings a new log to count once. */
  private countedActivity(): ActivityRecord[] {
    const log = this.state.activity;
    if (log !== this.countedLog) {
      this.countedLog = log;
      this.activityText = 0;
      for (const e of log) this.activityText += textOf(e);
    }
    return log;
  }

  /**
   * Drops activity entries past the retention, then the oldest down to 90% of `limit` when over
   * it, and down to 90% of ACTIVITY_TEXT_LIMIT characters when over that. Entries are appended as
   * time goes, so the expired ones are at the front: the scan stops at the first one still kept.
   */
  trimActivity(limit = this.options.activityLimit ?? ACTIVITY_LIMIT): void {
    // ISO timestamps of one format compare as strings.
    const since = new Date(this.clock.now() - ACTIVITY_RETENTION_DAYS * 86_400_000).toISOString();
    const log = this.countedActivity();
    let expired = 0;
    while (expired < log.length && log[expired]!.timestamp < since) expired++;
    let drop = log.length - expired > limit ? log.length - Math.floor(limit * 0.9) : expired;
    let text = this.activityText;
    for (let i = 0; i < drop; i++) text -= textOf(log[i]!);
    // Over the text limit: the oldest go until 90% of it is left.
    if (text > ACTIVITY_TEXT_LIMIT)
      while (text > ACTIVITY_TEXT_LIMIT * 0.9 && drop < log.length) text -= textOf(log[drop++]!);
    if (drop > 0) log.splice(0, drop);
    this.activityText = text;
  }

  /** Adds an alert to the inbox (unread, not dismissed). */
  publishAlert(input: AlertInput): AlertRecord {
    const site = input.siteId != null ? this.state.sites.find((s) => s.id === input.siteId) : undefined;
    const alert: AlertRecord = {
      id: nextId(this.state, 'alert'),
      type: input.type,
      category: input.category,
      severity: input.severity ?? 'info',
      title: capped(input.title),
      message: capped(input.message),
      icon: input.icon ?? input.type.split('.')[0] ?? 'info',
      site: site ? { id: site.id, name: capped(site.name), display_name: capped(site.displayName) } : null,
      actions: input.actions ?? [],
      read: false,
      dismissed: false,
      created_at: this.clock.nowIso(),
      expiresAt: null,
    };
    const alerts = this.state.alerts;
    alerts.push(alert);
    if (alerts.length > ALERT_LIMIT) alerts.splice(0, alerts.length - ALERT_LIMIT);
    return alert;
  }

  /**
   * Queued work: runs `fn` after `delayMs` of virtual time. The state it captured may have
   * changed meanwhile (e.g. the site was deleted): re-find records inside `fn`.
   */
  later(delayMs: number, label: string, fn: () => void) {
    const state = this.state;
    // Work queued before a reset must not touch the new state.
    return this.clock.schedule(delayMs, label, () => {
      if (this.state === state) fn();
    });
  }

  /**
   * Records a webhook event and, with a webhook URL, POSTs it there (JSON, no token, headers
   * `x-hosting-event` and `x-hosting-delivery`). `copies` > 1 sends the same delivery again (same
   * payload, same delivery id): part 6 says a delivery may come more than once.
   */
  emitWebhook(event: string, payload: unknown, copies = 1): WebhookDelivery {
    const id = this.webhookSeq++;
    let first: WebhookDelivery | undefined;
    for (let copy = 0; copy < copies; copy++) {
      const delivery = this.deliver(id, event, payload);
      first ??= delivery;
    }
    return first!;
  }

  private deliver(id: number, event: string, payload: unknown): WebhookDelivery {
    const delivery: WebhookDelivery = {
      id,
      seq: this.recordSeq++,
      event,
      payload,
      emittedAt: this.clock.nowIso(),
      url: this.options.webhookUrl,
      status: null,
    };
    const body = JSON.stringify(payload);
    this.keepDelivery(delivery, body.length);
    const url = this.options.webhookUrl;
    if (url) {
      const p = fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hosting-event': event, 'x-hosting-delivery': String(id) },
        body,
        signal: AbortSignal.timeout(5_000),
      })
        .then((res) => {
          delivery.status = res.status;
          return res.body?.cancel();
        })
        .catch((error: unknown) => {
          delivery.error = error instanceof Error ? error.message : String(error);
        })
        .finally(() => this.inflight.delete(p));
      this.inflight.add(p);
    }
    return delivery;
  }

  /**
   * Records a delivery; the oldest go past WEBHOOK_RECORD_LIMIT records or WEBHOOK_TEXT_LIMIT
   * characters of payload. The count is of this list: one cleared or reset is counted anew.
   */
  private keepDelivery(delivery: WebhookDelivery, size: number): void {
    const records = this.webhooks;
    const sizeOf = (d: WebhookDelivery) => this.payloadSizes.get(d) ?? JSON.stringify(d.payload).length;
    if (records !== this.countedWebhooks) {
      this.countedWebhooks = records;
      this.webhookText = records.reduce((n, d) => n + sizeOf(d), 0);
    }
    this.payloadSizes.set(delivery, size);
    records.push(delivery);
    this.webhookText += size;
    let drop = 0;
    while (
      drop < records.length - 1 &&
      (records.length - drop > WEBHOOK_RECORD_LIMIT || this.webhookText > WEBHOOK_TEXT_LIMIT)
    )
      this.webhookText -= sizeOf(records[drop++]!);
    if (drop > 0) records.splice(0, drop);
  }

  /** Characters of payload (as JSON) the recorded deliveries keep. */
  get webhookTextSize(): number {
    return this.webhooks.reduce((n, d) => n + (this.payloadSizes.get(d) ?? JSON.stringify(d.payload).length), 0);
  }

  async settle(): Promise<void> {
    await Promise.all([...this.inflight]);
  }
}
