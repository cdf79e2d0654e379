// Shell completion: the scripts ask the CLI itself (`hosting-api __complete <words>`), which walks
// the same command tree the commands run from, so completion always matches the spec.
import type { Command } from 'commander';
import { EXIT } from '../errors';
import type { Act } from '../globals';
import type { Io } from '../io';
import { UsageError } from '../values';

const SCRIPTS: Record<string, string> = {
  bash: `# hosting-api completion for bash: eval "$(hosting-api completion bash)"
_hosting_api_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(hosting-api __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _hosting_api_complete hosting-api
`,
  zsh: `#compdef hosting-api
# hosting-api completion for zsh: eval "$(hosting-api completion zsh)"
_hosting_api_complete() {
  local -a candidates
  candidates=("\${(@f)$(hosting-api __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _hosting_api_complete hosting-api
`,
  fish: `# hosting-api completion for fish: hosting-api completion fish | source
function __hosting_api_complete
    set -l tokens (commandline -opc) (commandline -ct)
    hosting-api __complete $tokens[2..-1] 2>/dev/null
end
complete -c hosting-api -f -a '(__hosting_api_complete)'
`,
};

export function completionScript(shell: string): string {
  const script = SCRIPTS[shell];
  if (!script)
    throw new UsageError(
      `completion: the shell must be one of ${Object.keys(SCRIPTS).join(', ')} (got ${JSON.stringify(shell)})`,
    );
  return script;
}

/** Candidates for the last of `words` (the word being typed), after the ones before it. */
export function complete(program: Command, words: string[]): string[] {
  const current = words.at(-1) ?? '';
  let command = program;
  for (const word of words.slice(0, -1)) {
    if (word.startsWith('-')) continue;
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (next) command = next;
  }
  const visible = (c: Command) => !(c as unknown as { _hidden?: boolean })._hidden;
  const options = [...command.options, ...(command === program ? [] : program.options)]
    .map((o) => o.long)
    .filter((o): o is string => !!o);
  const candidates = current.startsWith('-')
    ? [...options, '--help']
    : command.commands.filter(visible).map((c) => c.name());
  return candidates.filter((c) => c.startsWith(current)).sort();
}

/** `completion <shell>` prints the script; the hidden `__complete <words...>` answers it. */
export function addCompletionCommands(program: Command, act: Act, io: Io): void {
  program
    .command('completion')
    .description('Print a shell completion script: eval "$(hosting-api completion bash)" (or zsh, fish)')
    .argument('<shell>', 'bash, zsh or fish')
    .action((shell: string) =>
      act(() => {
        io.stdout.write(completionScript(shell));
        return EXIT.ok;
      }),
    );
  program
    .command('__complete', { hidden: true })
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action((words: string[]) =>
      act(() => {
        const out = complete(program, words);
        if (out.length) io.stdout.write(`${out.join('\n')}\n`);
        return EXIT.ok;
      }),
    );
}
