// What lint cannot check: the seed's operations are all here, the conventions hold across the
// whole document, and every example validates against its schema (JSON Schema 2020-12).
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { doc, type Json, model, operations } from './load';

const seedOperations = readFileSync(new URL('./seed-operations.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const [method, path, status] = line.split(' ');
    return { method: method!.toLowerCase(), path: path!, status: status! };
  });

const successStatus = (op: Json) =>
  Object.keys(op.responses)
    .filter((s) => /^2\d\d$/.test(s))
    .sort()[0];

function jsonMediaTypes() {
  return operations.flatMap(({ method, path, op }) =>
    Object.entries(op.responses as Json).flatMap(([status, response]) =>
      Object.entries(((response as Json).content ?? {}) as Json)
        .filter(([type]) => type === 'application/json')
        .map(([, media]) => ({ where: `${method.toUpperCase()} ${path} ${status}`, status, media: media as Json })),
    ),
  );
}

describe('seed coverage', () => {
  it('has the 116 operations of the seed with their exact method, path and success status', () => {
    expect(seedOperations).toHaveLength(116);
    const actual = operations.map(({ method, path, op }) => `${method} ${path} ${successStatus(op)}`).sort();
    const expected = seedOperations.map(({ method, path, status }) => `${method} ${path} ${status}`).sort();
    expect(actual).toEqual(expected);
  });

  it('documents the git_deploy_completed webhook', () => {
    expect(Object.keys(doc.webhooks ?? {})).toContain('git_deploy_completed');
  });
});

describe('naming conventions', () => {
  it('has unique camelCase operationIds whose verb follows the method', () => {
    const ids = operations.map(({ op }) => op.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path, op } of operations) {
      const id: string = op.operationId;
      expect(id, `${method} ${path}`).toMatch(/^[a-z]+[A-Z][A-Za-z0-9]*$/);
      if (method === 'get') expect(id, path).toMatch(/^(get|list)[A-Z]/);
      else if (method === 'delete') expect(id, path).toMatch(/^delete[A-Z]/);
      else expect(id, `${method} ${path}`).not.toMatch(/^(get|list|delete)[A-Z]/);
    }
  });

  it('gives every operation a unique client method', () => {
    const names = operations.map(({ op }) => op['x-client-method']);
    expect(names.every((n) => typeof n === 'string' && /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/.test(n))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    // A group cannot also be a method: `sites.git` and `sites.git.deploy` would collide in the client.
    for (const name of names)
      expect(
        names.some((other) => other.startsWith(`${name}.`)),
        name,
      ).toBe(false);
  });

  it('uses one name per path template and {site_id} for the site everywhere', () => {
    const templates = Object.keys(doc.paths).map((p) => p.replace(/\{[^}]+\}/g, '{}'));
    expect(new Set(templates).size).toBe(templates.length);
    for (const path of Object.keys(doc.paths)) {
      const site = path.match(/\/sites\/(\{[^}]+\})/);
      if (site) expect(site[1], path).toBe('{site_id}');
    }
    // A parameter name means one thing: the same schema wherever it appears.
    const byName = new Map<string, string>();
    for (const { path, parameters } of operations) {
      for (const p of parameters.filter((p) => p.in === 'path')) {
        const schema = JSON.stringify(p.schema);
        expect(byName.get(p.name) ?? schema, `${p.name} in ${path}`).toBe(schema);
        byName.set(p.name, schema);
      }
    }
  });

  it('gives every path and query parameter a parameter-level example', () => {
    for (const { method, path, parameters } of operations) {
      for (const p of parameters) expect(p.example, `${p.name} of ${method} ${path}`).toBeDefined();
    }
  });

  it('never uses allOf (Dredd drops it and orval loses its required)', () => {
    expect(JSON.stringify(doc)).not.toContain('"allOf"');
  });
});

describe('responses', () => {
  it('wraps every JSON response body in the envelope', () => {
    for (const { where, media } of jsonMediaTypes()) {
      const schema = media.schema;
      expect(schema.type, where).toBe('object');
      expect(schema.additionalProperties, where).toBe(false);
      expect(
        Object.keys(schema.properties)
          .sort()
          .filter((k) => k !== 'page'),
        where,
      ).toEqual(['data', 'errors', 'message']);
      expect(schema.required, where).toEqual(expect.arrayContaining(['message', 'data', 'errors']));
    }
  });

  it('gives every paginated list a page block', () => {
    for (const { method, path, op, parameters } of operations) {
      const body = op.requestBody?.content?.['application/json']?.schema;
      const paged = parameters.some((p: Json) => p.name === 'page') || body?.properties?.page;
      if (!paged) continue;
      const schema = op.responses[successStatus(op)!].content['application/json'].schema;
      expect(schema.properties.page, `${method} ${path}`).toEqual(model.dereferenced.components.schemas.Page);
    }
  });

  it('documents 401 on every secured operation and 404 on every parameterised path', () => {
    for (const { method, path, op } of operations) {
      const secured = (op.security ?? doc.security).length > 0;
      if (secured) expect(Object.keys(op.responses), `${method} ${path}`).toContain('401');
      if (path.includes('{')) expect(Object.keys(op.responses), `${method} ${path}`).toContain('404');
    }
  });

  it('has an example on every response and request body, each valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const check = (where: string, media: Json) => {
      const examples = media.examples
        ? Object.values(media.examples as Json).map((e: Json) => e.value)
        : [media.example];
      expect(examples.length, where).toBeGreaterThan(0);
      const validate = ajv.compile(media.schema);
      for (const example of examples) {
        expect(example, where).toBeDefined();
        expect(validate(example) ? [] : validate.errors, where).toEqual([]);
      }
    };
    let checked = 0;
    for (const { method, path, op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        for (const [type, media] of Object.entries(((response as Json).content ?? {}) as Json)) {
          check(`${method.toUpperCase()} ${path} ${status} ${type}`, media);
          checked++;
        }
      }
      for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
        check(`${method.toUpperCase()} ${path} request ${type}`, media);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(operations.length);
  });
});
