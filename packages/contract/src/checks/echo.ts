// Every field sent is read back (write_read_back, create_listed): beside the statement's `fields`
// (request field → read field), each other request field the read shows under the same name or its
// camelCase (`datacenter_code` → `datacenterCode`) must read back as sent, a `null` included. The
// statement's `notRead` names the request fields no read shows (the documentation says so).
import type { Json, Statement } from '../types';

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Request field → read field for every field of `body` stated or shown by `read` (scalars and null). */
export function echoedFields(statement: Statement, body: Json, read: Json): Record<string, string> {
  const stated = statement.fields ?? {};
  if (!body || typeof body !== 'object' || !read || typeof read !== 'object') return {};
  const out: Record<string, string> = Object.fromEntries(Object.entries<string>(stated).filter(([f]) => f in body));
  for (const [field, value] of Object.entries(body)) {
    if (field in stated || (statement.notRead ?? []).includes(field)) continue;
    if (value !== null && typeof value === 'object') continue;
    const to = [field, camel(field)].find((f) => f in read);
    if (to) out[field] = to;
  }
  return out;
}
