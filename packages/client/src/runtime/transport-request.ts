// What the transport sends: shared by transport.ts and the two `#get-with-body` variants, which
// transport.ts imports (so they cannot import it back).
export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | URLSearchParams;
  signal: AbortSignal | undefined;
  /** Largest answer body read (the client's maxResponseBytes). */
  maxBytes?: number;
  /** The operation, for errors that must name it. */
  operationId?: string;
}
