// Reading flag values as the spec types them. Every failure is a UsageError whose one line names
// the flag and what it accepts.
import type { FieldType, ScalarType } from './spec';

/** A mistake on the command line: exit status 2, one line. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function scalar(type: ScalarType, raw: string): string | number | boolean | undefined {
  switch (type) {
    case 'integer':
      return INTEGER.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined;
    case 'number':
      return NUMBER.test(raw) ? Number(raw) : undefined;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
    default:
      return raw;
  }
}

const article = (type: string) =>
  type === 'integer' ? 'an integer' : type === 'boolean' ? 'true or false' : `a ${type}`;

/** Parses one command-line value of a field; `flag` is how the error names it (`--per_page`, `site_id`). */
export function parseValue(flag: string, type: FieldType, raw: string): unknown {
  if (type.kind === 'json') {
    try {
      return JSON.parse(raw);
    } catch {
      throw new UsageError(`${flag} takes JSON (got ${JSON.stringify(raw)})`);
    }
  }
  if ('nullable' in type && type.nullable && raw === 'null') return null;
  if (type.kind === 'union') {
    for (const t of type.types) {
      const v = scalar(t, raw);
      if (v !== undefined) return v;
    }
    throw new UsageError(`${flag} must be ${type.types.map(article).join(' or ')} (got ${JSON.stringify(raw)})`);
  }
  if (type.kind === 'array') {
    // A JSON array, or one value (the flag is repeated for more).
    if (raw.trimStart().startsWith('[')) {
      let list: unknown;
      try {
        list = JSON.parse(raw);
      } catch {
        throw new UsageError(`${flag} takes a value per flag or a JSON array (got ${JSON.stringify(raw)})`);
      }
      if (!Array.isArray(list)) throw new UsageError(`${flag} takes a value per flag or a JSON array`);
      return list.map((v) => parseValue(flag, type.items, typeof v === 'string' ? v : JSON.stringify(v)));
    }
    return parseValue(flag, type.items, raw);
  }
  const value = scalar(type.type, raw);
  if (value === undefined) throw new UsageError(`${flag} must be ${article(type.type)} (got ${JSON.stringify(raw)})`);
  if (type.enum && !type.enum.includes(value))
    throw new UsageError(`${flag} must be one of ${type.enum.join(', ')} (got ${JSON.stringify(raw)})`);
  if (typeof value === 'number' && type.minimum !== undefined && value < type.minimum)
    throw new UsageError(`${flag} must be at least ${type.minimum} (got ${raw})`);
  if (typeof value === 'number' && type.maximum !== undefined && value > type.maximum)
    throw new UsageError(`${flag} must be at most ${type.maximum} (got ${raw})`);
  return value;
}

/** What a flag's value looks like in help: `<integer>`, `<fs|db>`, `<json>`. */
export function placeholder(type: FieldType): string {
  switch (type.kind) {
    case 'json':
      return '<json>';
    case 'union':
      return `<${type.types.join('|')}>`;
    case 'array':
      return `<${placeholder(type.items).slice(1, -1)}>`;
    default:
      return type.enum ? `<${type.enum.join('|')}>` : `<${type.type}>`;
  }
}
