// The shapes the Dredd hooks (hooks.ts) read and change: Dredd's transactions, what the hooks keep
// on them from one hook to the next, and a transaction's request from the target data or the plan.
import type { Json } from './types';

export type Done = () => void;
/** What the hooks keep on a transaction from one hook to the next. */
export interface Contract {
  key: string;
  status: string;
  operationId?: string;
  mediaType?: string;
  mediaOverride?: boolean;
  reason?: string;
  error?: string;
  planned?: boolean;
  otherMedia?: string;
  sentAt?: number;
  ms?: number;
  revokes?: string;
}
/** A Dredd transaction, as far as the hooks read and change it. */
export interface Transaction {
  name: string;
  origin: { resourceName: string };
  request: { method: string; uri: string; headers: Record<string, string>; body: string };
  expected: { statusCode: number | string; headers?: Record<string, string>; body?: unknown; bodySchema?: unknown };
  real?: { statusCode: number; headers: Record<string, string>; body: string };
  protocol: string;
  host: string;
  port: string;
  fullPath: string;
  skip?: boolean;
  fail?: string | boolean;
  test?: { valid?: boolean; message?: string };
  contract?: Contract;
}
/** A transaction's request from the target data ("requests") or the live plan. */
export interface Override {
  params?: Record<string, Json>;
  query?: Record<string, unknown>;
  body?: Json;
  headers?: Record<string, string>;
  before?: Json[];
  client?: string;
  planned?: boolean;
}
