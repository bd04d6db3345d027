import { cliCommands } from './cli-commands.js';

const width = Math.max(...cliCommands.map((command) => command.usage.length)) + 3;

/** The top-level help, listing every command of {@link cliCommands}. */
export function mainHelp(): string {
  return `tool-orchestrator: run code-exploration tools or the explorer agent on a repository.

Usage:
${cliCommands.map((command) => `  tool-orchestrator ${command.usage.padEnd(width)}${command.summary}`).join('\n')}

Run 'tool-orchestrator help <command>' or 'tool-orchestrator <command> --help' for a command's flags.
  --version     print the version
  -h, --help    show this help
Exit codes: 0 ok, 1 failure, 2 usage error (bad command, flag or value, missing API key), 130 Ctrl-C.
Colors follow NO_COLOR and FORCE_COLOR; none are written to a stream that is not a terminal.`;
}

/** The help of the built-in commands. */
export const helpTexts = {
  tool: `Usage: tool-orchestrator tool <name> [json-args] --repo DIR

Runs one tool of the code-exploration pack directly, with no model, and prints what a model would see.

Arguments:
  <name>        a tool name (see 'tool-orchestrator tools')
  [json-args]   the tool's arguments as one JSON object in single quotes, e.g. '{"symbol":"AxiosError"}'
                (default {}); an unknown key is an error
Flags:
  --repo DIR    the repository root (default: the current directory)
  --json        print {"ok", "content", "error"} as JSON instead of the raw output
  --allow-external-git-dir
                let git_log and git_diff run where the git data lies outside the repository
                folder (a linked worktree, a submodule checkout); only for repositories you trust
  -h, --help    show this help

Exit codes: 0 ok, 1 the tool failed (e.g. a missing file), 2 bad usage (unknown tool or flag,
arguments that are not JSON or do not fit the tool's parameters, a --repo that is not a folder).

Examples:
  tool-orchestrator tool repo_map --repo .
  tool-orchestrator tool read_file '{"path":"src/index.ts","start_line":1,"end_line":40}' --repo .
  tool-orchestrator tool get_references '{"symbol":"AxiosError"}' --repo node_modules/axios`,
  tools: `Usage: tool-orchestrator tools [--repo DIR] [--json]

Lists the code-exploration tools with their parameters.

Flags:
  --repo DIR    the repository root (default: the current directory)
  --json        print the tool definitions as JSON (what the model receives)
  -h, --help    show this help`,
  explore: `Usage: tool-orchestrator explore "<question>" --repo DIR [flags]

Runs the read-only explorer agent on a repository and prints its JSON report on stdout.
When stderr is a terminal, progress goes there live: the repository, model and endpoint, each turn
with the model's reasoning and tool calls, and the time spent waiting for the model.
Ctrl-C stops the run cleanly: what was found so far is printed, the trace is closed, exit code 130;
a second Ctrl-C exits at once.

Flags:
  --repo DIR            the repository root (default: the current directory)
  --provider NAME       deepseek or openai (default: openai with a base URL, else deepseek when
                        DEEPSEEK_API_KEY is set, else openai)
  --model M             the model name (default: deepseek-v4-flash for deepseek; required for openai)
  --base-url URL        any OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 (Ollama), vLLM,
                        llama.cpp; needs no API key
  --max-turns N         the explorer's turn budget (default: set by --depth)
  --depth D             shallow, normal or deep: 4, 10 or 25 turns (default: normal)
  --trace FILE.jsonl    write every trace event to FILE, one JSON object a line
  --record FILE.jsonl   record every model call to a cassette FILE (API keys removed)
  --replay FILE.jsonl   answer every model call from a cassette FILE: offline, no key needed
  --json                machine output only: the report, or {"error": {"code", "message"}}, on stdout;
                        nothing on stderr
  -h, --help            show this help

Settings come from the flag, else TOOL_ORCHESTRATOR_PROVIDER, _MODEL, _BASE_URL, _API_KEY, else the
provider's DEEPSEEK_* or OPENAI_* variable (API_KEY, MODEL, BASE_URL), else the default.

Exit codes: 0 report printed, 1 the run failed (model, connection, invalid report), 2 bad usage
(flag, value, missing key, unwritable --trace file), 130 interrupted with Ctrl-C.`,
  eval: `Usage: tool-orchestrator eval SUITE.mjs [flags]
       tool-orchestrator eval --preset explore --model NAME [flags]

Runs a suite's cases through its agent with evaluate() (tool-orchestrator/evals), writes the JSON
report, and prints each scorer's mean and the failing cases. A suite file exports (as default, or
as suite) evaluate()'s options: { name?, dataset, task, scorers, concurrency? }, or a function
({ model }) => those options that builds its adapters with model(() => adapter, { name? }), which
--record and --replay need. A .ts suite needs a Node that can import TypeScript, e.g.
NODE_OPTIONS='--import tsx'.

Flags:
  --out FILE.json       where the report goes (default: eval-report.json)
  --html FILE.html      also write an HTML report, with each case's trace in FILE-traces/
  --compare FILE.json   a baseline report: print what got better and worse; exit 1 when it regressed
  --threshold X         how far a scorer's mean may drop before it counts as a regression (default: 0)
  --concurrency N       cases at once (default: the suite's, else 4)
  --preset explore      the exploration eval that ships with the package: questions over axios and the
                        repository's fixtures, scored by the files the explorer's report cites
  --questions ID,ID     with --preset: only these questions
  --depth D             with --preset: the explorer's depth, shallow, normal or deep (default: normal)
  --provider, --model, --base-url
                        with --preset: the model, as for explore (same variables)
  --record FILE.jsonl   record every model call to a cassette (a suite's model named judge goes to
                        FILE.judge.jsonl)
  --replay FILE.jsonl   answer every model call from the cassettes --record wrote, offline
  --json                print {"report", "summary", "comparison"} as one JSON line instead
  -h, --help            show this help

Exit codes: 0 done (and no regression), 1 regressed against --compare or the run failed, 2 bad
usage (flag, value, suite file), 130 interrupted with Ctrl-C (the report so far is written).`,
} as const;
