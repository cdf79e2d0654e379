// Programmatic entry of @hosting-api/cli: the command layer the `hosting-api` executable runs.
export { configDir, credentialsPath, tokenPath } from './config';
export { EXIT, exitCode } from './errors';
export { operations } from './generated/operations';
export { parseDuration } from './globals';
export type { Io } from './io';
export { buildProgram, run } from './run';
export type { ArgumentSpec, CommandSpec, FieldSpec, FieldType, WaitRule } from './spec';
