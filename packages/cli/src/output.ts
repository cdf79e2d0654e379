// Printing results: `--json` prints the envelope's `data` as JSON; otherwise a list of objects is a
// table, an object is one `key  value` line per field, and no data prints the API's message.
// `--columns` picks a table's columns or an object's fields.

// A column's header is its field's name as words: `displayName` → `Display name`,
// `collaborators_count` → `Collaborators count`, with the usual abbreviations in capitals.
const ABBREVIATIONS = new Set([
  'api',
  'cms',
  'dns',
  'http',
  'id',
  'ip',
  'php',
  'seo',
  'sftp',
  'ssl',
  'ttl',
  'url',
  'wp',
]);
export function heading(field: string): string {
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => (ABBREVIATIONS.has(w.toLowerCase()) ? w.toUpperCase() : w.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const isScalar = (v: unknown) => v === null || v === undefined || typeof v !== 'object';

const cell = (v: unknown, max = 40): string => {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const flat = s.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

// Columns that identify a row come first: the id, then a name, then the state; the rest keep the
// spec's order. Wide lists keep as many as fit the terminal.
const NAMES = /^(name|displayName|display_name|subject|title|email|slug|path|type)$/;
const rank = (c: string) => (c === 'id' ? 0 : NAMES.test(c) ? 1 : /^(state|status)$/.test(c) ? 2 : 3);

/** The columns of a table: scalar fields with a value in some row, most telling first, within `width`. */
export function chooseColumns(
  rows: Record<string, unknown>[],
  specColumns: readonly string[] = [],
  width = 160,
): string[] {
  const keys = [...new Set([...specColumns, ...rows.flatMap((r) => Object.keys(r))])];
  const usable = keys.filter(
    (k) => rows.every((r) => isScalar(r[k])) && rows.some((r) => r[k] !== null && r[k] !== undefined && r[k] !== ''),
  );
  const ordered = usable
    .map((k, i) => ({ k, i }))
    .sort((a, b) => rank(a.k) - rank(b.k) || a.i - b.i)
    .map((x) => x.k);
  const out: string[] = [];
  let used = 0;
  for (const k of ordered) {
    const w = Math.max(heading(k).length, ...rows.map((r) => cell(r[k]).length)) + 2;
    if (out.length && used + w > width) continue;
    out.push(k);
    used += w;
  }
  return out;
}

export function table(rows: Record<string, unknown>[], columns: string[], headers = true): string {
  const headings = columns.map(heading);
  const widths = columns.map((c, i) => Math.max(headings[i]!.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const body = rows.map((r) => line(columns.map((c) => cell(r[c]))));
  return (headers ? [line(headings), ...body] : body).join('\n');
}

export interface RenderOptions {
  json: boolean;
  /** The spec's fields of a list item, in order (the table's candidates). */
  columns?: readonly string[];
  /** `--columns`: exactly these, in this order (a table's columns, or an object's fields). */
  only?: readonly string[];
  /** `--no-headers`: rows only. */
  headers?: boolean;
  width?: number;
  message?: string;
}

export function render(data: unknown, options: RenderOptions): string {
  if (options.json) return JSON.stringify(data ?? null, null, 2);
  if (data === null || data === undefined) return options.message ?? '';
  if (Array.isArray(data)) {
    if (!data.length) return '(none)';
    if (data.every((r) => r && typeof r === 'object' && !Array.isArray(r))) {
      const rows = data as Record<string, unknown>[];
      return table(
        rows,
        options.only ? [...options.only] : chooseColumns(rows, options.columns, options.width),
        options.headers,
      );
    }
    return data.map((v) => cell(v, Infinity)).join('\n');
  }
  if (typeof data === 'object') {
    // Fields first, one line each; a list of objects inside (a log page's entries) as a table after them.
    const isRows = (v: unknown): v is Record<string, unknown>[] =>
      Array.isArray(v) && v.length > 0 && v.every((r) => r && typeof r === 'object' && !Array.isArray(r));
    const record = data as Record<string, unknown>;
    const entries = options.only ? options.only.map((k) => [k, record[k]] as const) : Object.entries(record);
    const fields = entries.filter(([, v]) => !isRows(v));
    const w = Math.max(0, ...fields.map(([k]) => k.length));
    // `--no-headers`: the values alone (`sites get 1 --columns state --no-headers` prints `live`).
    const line = ([k, v]: readonly [string, unknown]) =>
      options.headers === false ? cell(v, Infinity) : `${k.padEnd(w)}  ${cell(v, Infinity)}`;
    const parts = fields.length ? [fields.map(line).join('\n')] : [];
    for (const [k, v] of entries)
      if (isRows(v)) parts.push(`${k}:\n${table(v, chooseColumns(v, [], options.width), options.headers)}`);
    return parts.join('\n\n');
  }
  return String(data);
}
