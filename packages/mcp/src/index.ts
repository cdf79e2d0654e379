// Programmatic entry of @hosting-api/mcp.
export { tools } from './generated/tools';
export { type HttpServer, serveHttp } from './http';
export {
  ConfigError,
  callTool,
  clientFrom,
  createServer,
  describeTool,
  type Env,
  groups,
  type ServerOptions,
  selectTools,
} from './server';
export type { JsonSchema, ToolSpec } from './spec';
