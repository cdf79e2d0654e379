// Loads the bundled document (spec/dist/openapi.json, made by `bundle`) and walks its operations.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type Json = Record<string, any>;
export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export const doc: Json = JSON.parse(
  readFileSync(fileURLToPath(new URL('../dist/openapi.json', import.meta.url)), 'utf8'),
);

/** Follows a local `$ref` (`#/components/...`) until it reaches a value. */
export function deref<T = Json>(node: any): T {
  while (node && typeof node.$ref === 'string') {
    node = node.$ref
      .slice(2)
      .split('/')
      .reduce((at: any, key: string) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return node;
}

export interface Operation {
  method: string;
  path: string;
  op: Json;
  parameters: Json[];
}

export const operations: Operation[] = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({
    method,
    path,
    op: item[method],
    parameters: [...(item.parameters ?? []), ...(item[method].parameters ?? [])].map((p: Json) => deref(p)),
  })),
);
