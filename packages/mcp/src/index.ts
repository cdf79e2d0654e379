// Programmatic entry of @hosting-api/mcp.
export { tools } from './generated/tools';
export { type HttpOptions, type HttpServer, isLoopback, serveHttp } from './http';
export {
  ConfigError,
  callTool,
  clientFrom,
  createServer,
  describeTool,
  dynamicTools,
  type Env,
  groups,
  type ServerOptions,
  selectTools,
  toolsets,
} from './server';
export type { JsonSchema, ToolSpec } from './spec';
export { DEFAULT_MAX_MESSAGE_BYTES, LineStdioTransport } from './stdio';
