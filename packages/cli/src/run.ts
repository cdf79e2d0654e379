// The command line, wired: the program and its global options, and each group of commands from its
// file in commands/ (the operations of the spec, `auth`, `webhooks`, `api`, `completion`). `run()`
// is the whole CLI in-process: it returns the exit status instead of exiting.
import { Command, CommanderError, Help } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import { addApiCommand } from './commands/api';
import { addAuthCommands } from './commands/auth';
import { addCompletionCommands } from './commands/completion';
import { addOperationCommands } from './commands/operations';
import { addWebhookCommands } from './commands/webhooks';
import { describe, EXIT, exitCode } from './errors';
import { title } from './generated/operations';
import type { Act } from './globals';
import { DEFAULT_MAX_BYTES } from './http';
import { type Io, processIo } from './io';

/**
 * Builds the command tree. `onRun` receives the promise of the invoked command's exit status.
 * Given `argv`, only the commands whose words all appear in it get their flags (the others have
 * their name, summary and arguments, which is what help lists): a run builds one command, not 116.
 */
export function buildProgram(io: Io, onRun: (status: Promise<number>) => void, argv?: readonly string[]): Command {
  const act: Act = (work) =>
    onRun(
      (async () => {
        try {
          return await work();
        } catch (error) {
          io.stderr.write(`${describe(error)}\n`);
          return exitCode(error);
        }
      })(),
    );
  const program = new Command('hosting-api')
    .description(
      `${title}: every operation of the API as a command.\n\nCredentials: HOSTING_API_CLIENT_ID and HOSTING_API_CLIENT_SECRET, or \`hosting-api auth login\`.\nAddresses: HOSTING_API_BASE_URL and HOSTING_API_AUTH_URL, or --base-url and --auth-url.`,
    )
    .version(pkg.version)
    .option('--base-url <url>', 'API base ending in /v1 (default HOSTING_API_BASE_URL)')
    .option('--auth-url <url>', 'token service root (default HOSTING_API_AUTH_URL, else the base URL without /v1)')
    .option('--json', "print the answer's data as JSON")
    .option(
      '--columns <list>',
      "the fields shown, comma-separated field names: a table's columns or an object's lines (default: those that fit)",
    )
    .option('--no-headers', "print table rows without the header line, an object's values without their names")
    .option('--retries <n>', 'retries after a connection error, 429 or 5xx (default 2)')
    .option(
      '--timeout <duration>',
      'give up on an attempt after this long: 500ms, 10s, 1m (default HOSTING_API_TIMEOUT, else 60s)',
    )
    .option(
      '--max-size <bytes>',
      `largest answer read: 65536, 64KiB, 10MiB (default HOSTING_API_MAX_SIZE, else ${DEFAULT_MAX_BYTES / 1024 ** 2}MiB)`,
    )
    .option('--dry-run', 'print the request (method, URL, headers with the token masked, body) and send nothing')
    .option(
      '-y, --yes',
      'run a destructive command, or a read the spec states an effect for (the SSH disconnect), without asking (required without a terminal)',
    )
    .option('--profile <name>', 'the stored credentials to use (default HOSTING_API_PROFILE, else default)')
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s),
    });
  // A command's alias is the client's spelling of its word (`muPlugins` for `mu-plugins`): it runs, help does not show it.
  const withoutAliases = (cmd: Command): Command => Object.create(cmd, { _aliases: { value: [] } });
  program.configureHelp({
    sortSubcommands: true,
    showGlobalOptions: true,
    subcommandTerm: (cmd) => Help.prototype.subcommandTerm.call(undefined, withoutAliases(cmd)),
    commandUsage: (cmd) => Help.prototype.commandUsage.call(undefined, withoutAliases(cmd)),
  });
  // --profile picks the stored credentials for this run, as HOSTING_API_PROFILE does.
  program.hook('preAction', (_program, action) => {
    const profile = action.optsWithGlobals().profile as string | undefined;
    if (profile !== undefined) io.env = { ...io.env, HOSTING_API_PROFILE: profile };
  });

  addOperationCommands(program, act, io, argv && new Set(argv));
  addAuthCommands(program, act, io);
  addWebhookCommands(program, act, io);
  addApiCommand(program, act, io);
  addCompletionCommands(program, act, io);
  return program;
}

/** Runs the CLI on `argv` (without the node and script paths); resolves to the exit status. */
export async function run(argv: string[], io: Io = processIo()): Promise<number> {
  let status: Promise<number> | undefined;
  const program = buildProgram(
    io,
    (s) => {
      status = s;
    },
    argv,
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version: 0. A group given without its command prints its help: a usage error.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      return EXIT.usage;
    }
    io.stderr.write(`${describe(error)}\n`);
    return exitCode(error);
  }
  return status ? await status : EXIT.ok;
}
