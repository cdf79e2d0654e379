// Types of @hosting-api/openapi/http/server (server.js).
import type { Server, ServerOptions } from 'node:http';
export interface ServerTimeouts {
  headers: number;
  request: number;
  keepAlive: number;
  idle: number;
}
export declare const SERVER_TIMEOUTS: Readonly<ServerTimeouts>;
export declare function serverOptions(timeouts?: Partial<ServerTimeouts>): ServerOptions;
export declare function limitServer<S extends Server>(server: S, timeouts?: Partial<ServerTimeouts>): S;
