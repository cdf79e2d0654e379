// Nothing a target sends reaches a report verbatim (issue 40): a target may echo the bearer token
// or the client secret the gate sent, or answer a body of megabytes. Every string the gate prints
// (console of every phase process, JUnit, JSON, GitHub annotations; the state diff included) goes
// through `shown()`: each secret the gate sent (cappedFetch registers them as it sends) and
// anything shaped like a bearer token or a credential field becomes [redacted], and a text over
// MAX_SHOWN bytes is cut there, saying how much was cut.

/** The most of one text (a line on the console, a field of a report) shown, in characters. */
export const MAX_SHOWN = 4096;
const REDACTED = '[redacted]';
const secrets = new Set<string>();

/**
 * A credential the gate made up to be refused is no secret, and its reproducer must show it: the
 * auth probes' garbage tokens (hooks-check.ts) start with `garbage-`, token_credentials' wrong secret
 * with `wrong-secret-`.
 */
const isOpen = (value: string) => value.startsWith('garbage-') || value.startsWith('wrong-secret-');

/** A value the gate sent that must never be printed (a token, a secret). Short values are ignored. */
export function addSecret(value: unknown): void {
  if (typeof value === 'string' && value.length >= 8 && !isOpen(value)) secrets.add(value);
}

/** Registers the credentials of a request the gate sends: its Authorization value and form credentials. */
export function addSecretsOf(headers: Record<string, unknown> | undefined, body: unknown): void {
  for (const [name, value] of Object.entries(headers ?? {}))
    if (name.toLowerCase() === 'authorization') addSecret(String(value).replace(/^\S+\s+/, ''));
  if (body instanceof URLSearchParams)
    for (const [name, value] of body) if (/secret|token|password/i.test(name)) addSecret(value);
}

const SHAPES: [RegExp, string][] = [
  [/\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/=-]{8,})/gi, `$1$2${REDACTED}`],
  // JSON Web Tokens: three base64url parts, the first a JSON header.
  [/\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*/g, REDACTED],
  // Credential fields, JSON or form: "access_token": "…", client_secret=… (not a $VARIABLE of a reproducer)
  [
    /(["']?\b(?:access_token|refresh_token|client_secret|password|secret|token)["']?\s*[:=]\s*["']?)((?!\$)[^"'&\s,;}]{8,})/gi,
    `$1${REDACTED}`,
  ],
];

/** `text` with every secret the gate sent and every token-shaped string replaced by [redacted]. */
export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  for (const [shape, by] of SHAPES)
    out = out.replace(shape, (match, ...groups) =>
      groups.some((g) => typeof g === 'string' && isOpen(g)) ? match : match.replace(shape, by),
    );
  return out;
}

/** `text` cut to MAX_SHOWN characters, saying how much was cut. */
export function cut(text: string, max = MAX_SHOWN): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters cut)`;
}

/** What may be shown of a value: its strings redacted and cut, at any depth. */
export function shown<T>(value: T): T {
  if (typeof value === 'string') return cut(redact(value)) as T;
  if (Array.isArray(value)) return value.map(shown) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shown(v)])) as T;
  return value;
}

let guarded = false;
/**
 * Every write of this process to stdout and stderr redacted, each line cut to MAX_SHOWN (Dredd's
 * output, the phases' lines, the state diff). The secrets in the environment count as sent.
 */
export function guardOutput(): void {
  if (guarded) return;
  guarded = true;
  for (const [name, value] of Object.entries(process.env))
    if (/SECRET|TOKEN|PASSWORD/i.test(name) && !/_MS$/.test(name)) addSecret(value);
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : undefined;
      if (text === undefined) return write(chunk, ...rest);
      const lines = text.split('\n').map((line) => cut(redact(line)));
      return write(lines.join('\n'), ...rest.filter((r) => typeof r === 'function'));
    }) as typeof stream.write;
  }
}
