// Types derived from the spec (@hosting-api/openapi/types, openapi-typescript's output): no hand-copied
// resource shapes. `Schema<'Site'>` is a component schema; the Op* helpers read an operation.
import type { components, operations } from '@hosting-api/openapi/types';

export type Schemas = components['schemas'];
export type Schema<K extends keyof Schemas> = Schemas[K];
export type OperationId = keyof operations;

type Params<K extends OperationId> = operations[K]['parameters'];
export type OpPath<K extends OperationId> = Params<K> extends { path: infer P } ? P : Record<string, never>;
export type OpQuery<K extends OperationId> =
  Params<K> extends { query?: infer Q }
    ? undefined extends Q
      ? NonNullable<Q> extends never
        ? Record<string, never>
        : Partial<NonNullable<Q>>
      : Q
    : Record<string, never>;

type ContentOf<R> = R extends { content: infer C } ? C[keyof C] : undefined;
export type OpBody<K extends OperationId> = operations[K] extends { requestBody?: infer B }
  ? undefined extends B
    ? ContentOf<NonNullable<B>> | undefined
    : ContentOf<B>
  : undefined;

type Responses<K extends OperationId> = operations[K]['responses'];
type SuccessCode<K extends OperationId> = Extract<keyof Responses<K>, 200 | 201 | 202>;
/** The success response body (the envelope) of an operation. */
export type OpSuccess<K extends OperationId> = ContentOf<Responses<K>[SuccessCode<K>]>;
/** The `data` of the success envelope of an operation. */
export type OpData<K extends OperationId> = OpSuccess<K> extends { data: infer D } ? D : unknown;

export type Page = Schema<'Page'>;
