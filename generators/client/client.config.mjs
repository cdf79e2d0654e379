// Configuration of the client generator (generate.mjs). Paths are relative to the repository root.
import { PORTAL_URL } from '../shared/public-urls.mjs';

export default {
  /** The bundled spec; openapi-typescript's types of it are spec/dist/openapi.d.ts (`@hosting-api/openapi/types`). */
  spec: 'spec/dist/openapi.json',
  /** Where the types come from, as the generated file imports them. */
  typesModule: '@hosting-api/openapi/types',
  out: 'packages/client/src/generated/client.ts',
  /**
   * The documentation portal's public address (generators/shared/public-urls.mjs). Each method's
   * JSDoc links to its section, `#/<tag slug>/<operationid>` in lower case, as the portal's own menu
   * links (it also takes Redoc's older `#tag/<Tag>/operation/<operationId>`).
   */
  docsUrl: PORTAL_URL,
  /** Names the client object uses at its top level (`client.paginate`, `client.revoke`). */
  reserved: ['paginate', 'revoke', 'request', 'toString', 'toJSON', 'constructor'],
  /** Retried like GET unless `x-idempotent` says otherwise: operations of these verbs that do not toggle. */
  idempotentVerbs: ['get', 'head', 'options', 'delete', 'put'],
};
