// The servers a team would write by hand instead of using the sandbox (issue 41), for bench.mjs:
// Fastify with the spec's schemas (the POST body validated and each answer serialized by
// Fastify's schema compilers: Ajv and fast-json-stringify) and Express (express.json() and a
// hand check of the body). Both do the sandbox's work on the two benchmarked routes:
// - the same bearer check: `Authorization: Bearer <token>` looked up in a token map, expiry and
//   scopes checked, otherwise the API's 401 (with the WWW-Authenticate header the spec requires,
//   RFC 6750) or 403 envelope;
// - GET /v1/sites/{site_id}: the site found by id in an in-memory list, answered in the envelope;
// - POST /v1/sites/{site_id}/notes: the note stored with the next id, the editor and timestamps,
//   and an activity entry written (trimmed at a limit, as the sandbox's log is), then answered;
// - the API's refusals otherwise: 404 for an unknown or non-integer id, 400 for a bad body, each
//   in the error envelope (the bench sends none of these; they make the peers servers of the API).
// The 200 answers carry the headers the sandbox's do: Content-Type and Content-Length (node:http
// adds Date, Connection and Keep-Alive to every server's).
import { loadModel } from '@hosting-api/openapi/model';

export const TOKEN = 'bench-token';
const ACTIVITY_LIMIT = 10_000;

/** The in-memory account both peers serve: one site (the sandbox's own answer), notes, activity. */
function account(bodies) {
  const site = JSON.parse(bodies.get).data;
  const author = JSON.parse(bodies.post).data.author;
  const tokens = new Map([[TOKEN, { expiresAt: Date.now() + 3_600_000, scopes: ['authorized', 'owner', 'git_edit'] }]]);
  const state = { sites: [site], notes: [], activity: [], ids: { note: 1000, activity: 1 } };

  /** The bearer check: the refusal (status, headers, envelope), or null. */
  const refused = (authorization) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) return unauthorized('Bearer', 'Send Authorization: Bearer <ACCESS_TOKEN>.');
    const token = tokens.get(match[1]);
    if (!token || token.expiresAt <= Date.now())
      return unauthorized('Bearer error="invalid_token"', 'The access token is invalid.');
    if (!token.scopes.includes('authorized'))
      return [403, {}, failure('Forbidden', ['The access token lacks the authorized scope.'])];
    return null;
  };
  const siteOf = (id) => state.sites.find((s) => s.id === id);
  const addNote = (siteRecord, { subject, body }) => {
    const now = new Date().toISOString();
    const note = { id: state.ids.note++, author, editor: author, subject, body, created: now, updated: now };
    state.notes.push({ ...note, siteId: siteRecord.id });
    state.activity.push({
      id: state.ids.activity++,
      timestamp: now,
      name: 'note.created',
      description: 'Note created',
      message: `Note "${subject}" was added to ${siteRecord.name}.`,
      siteId: siteRecord.id,
    });
    if (state.activity.length > ACTIVITY_LIMIT) state.activity.splice(0, ACTIVITY_LIMIT / 10);
    if (state.notes.length > ACTIVITY_LIMIT) state.notes.splice(0, ACTIVITY_LIMIT / 10); // a bench runs long
    return note;
  };
  return { refused, siteOf, addNote };
}

const envelope = (data) => ({ message: 'Success', data, errors: null });
const failure = (message, errors = null) => ({ message, data: null, errors });
const unauthorized = (challenge, reason) => [401, { 'www-authenticate': challenge }, failure('Unauthorized', [reason])];
const NOT_FOUND = 'We could not locate the requested resources.';
const BAD_REQUEST = 'There was a problem processing your request.';

/** Fastify 5 with the spec's request-body and response schemas. Resolves to its port. */
export async function startFastify(bodies, host) {
  const { default: Fastify } = await import('fastify');
  const model = await loadModel();
  const op = (id) => model.operations.find((o) => o.operationId === id);
  const getSite = op('getSite');
  const createNote = op('createSiteNote');
  const answer = (o, status) => strip(o.responses[status].content['application/json'].schema);
  const errorSchema = strip(getSite.responses['404'].content['application/json'].schema);
  const { refused, siteOf, addNote } = account(bodies);
  const app = Fastify({ logger: false });
  const auth = async (req, reply) => {
    const no = refused(req.headers.authorization);
    if (no) return reply.code(no[0]).headers(no[1]).send(no[2]);
  };
  // A schema failure: a non-integer id names no site (404), a bad body is a 400.
  app.setErrorHandler((error, _req, reply) => {
    if (error.validationContext === 'params') return reply.code(404).send(failure(NOT_FOUND));
    if (error.validation || error.statusCode === 400 || error.statusCode === 415)
      return reply.code(400).send(failure(BAD_REQUEST, [error.message]));
    return reply.code(500).send(failure('An internal error occurred while processing your request. Please try again.'));
  });
  const siteParams = { type: 'object', required: ['site_id'], properties: { site_id: { type: 'integer' } } };
  app.get(
    '/v1/sites/:site_id',
    { onRequest: auth, schema: { params: siteParams, response: { 200: answer(getSite, '200'), '4xx': errorSchema } } },
    async (req, reply) => {
      const site = siteOf(req.params.site_id);
      if (!site) return reply.code(404).send(failure(NOT_FOUND));
      return envelope(site);
    },
  );
  app.post(
    '/v1/sites/:site_id/notes',
    {
      onRequest: auth,
      schema: {
        params: siteParams,
        body: strip(createNote.requestBody.content['application/json'].schema),
        response: { [bodies.postStatus]: answer(createNote, String(bodies.postStatus)), '4xx': errorSchema },
      },
    },
    async (req, reply) => {
      const site = siteOf(req.params.site_id);
      if (!site) return reply.code(404).send(failure(NOT_FOUND));
      return reply.code(bodies.postStatus).send(envelope(addNote(site, req.body)));
    },
  );
  await app.listen({ port: 0, host });
  return app.server.address().port;
}

/** Express 5 with express.json() and a hand check of the body. Resolves to its port. */
export async function startExpress(bodies, host) {
  const { default: express } = await import('express');
  const { refused, siteOf, addNote } = account(bodies);
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag'); // the sandbox sends none
  app.use((req, res, next) => {
    const no = refused(req.headers.authorization);
    if (no) return res.status(no[0]).set(no[1]).json(no[2]);
    next();
  });
  app.use(express.json({ limit: '1mb' }));
  const site = (req, res) => {
    const found = /^\d+$/.test(req.params.site_id) ? siteOf(Number(req.params.site_id)) : undefined;
    if (!found) res.status(404).json(failure(NOT_FOUND));
    return found;
  };
  app.get('/v1/sites/:site_id', (req, res) => {
    const found = site(req, res);
    if (found) res.json(envelope(found));
  });
  app.post('/v1/sites/:site_id/notes', (req, res) => {
    const found = site(req, res);
    if (!found) return;
    const { subject, body } = req.body ?? {};
    if (typeof subject !== 'string' || typeof body !== 'string')
      return res.status(400).json(failure(BAD_REQUEST, ['body: subject and body must be strings']));
    res.status(bodies.postStatus).json(envelope(addNote(found, { subject, body })));
  });
  const server = await new Promise((done) => {
    const s = app.listen(0, host, () => done(s));
  });
  return server.address().port;
}

/** A spec schema without the annotations Fastify's Ajv (strict mode) would warn about. */
function strip(schema) {
  if (Array.isArray(schema)) return schema.map(strip);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'examples' || key === 'example' || key.startsWith('x-')) continue;
    out[key] =
      key === 'properties' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v)])) : strip(value);
  }
  return out;
}
