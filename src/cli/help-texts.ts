/** The CLI's help texts, one per command. */
export const helpTexts = {
  main: `tool-orchestrator: run code-exploration tools or the explorer agent on a repository.

Usage:
  tool-orchestrator tool <name> [json-args] --repo DIR   run one code tool, no model needed
  tool-orchestrator tools --repo DIR                     list the tools and their parameters
  tool-orchestrator explore "<question>" --repo DIR      run the explorer agent, print its JSON report

Run 'tool-orchestrator <command> --help' for a command's flags.
Exit codes: 0 ok, 1 failure, 2 usage error (bad command or flag, missing API key).`,
  tool: `Usage: tool-orchestrator tool <name> [json-args] --repo DIR

Runs one tool of the code-exploration pack directly, with no model, and prints what a model would see.

Arguments:
  <name>        a tool name (see 'tool-orchestrator tools')
  [json-args]   the tool's arguments as one JSON object, e.g. '{"symbol":"AxiosError"}' (default {})
Flags:
  --repo DIR    the repository root (default: the current directory)
  --json        print {"ok", "content", "error"} as JSON instead of the raw output
  -h, --help    show this help

Examples:
  tool-orchestrator tool repo_map --repo .
  tool-orchestrator tool get_references '{"symbol":"AxiosError"}' --repo node_modules/axios`,
  tools: `Usage: tool-orchestrator tools [--repo DIR] [--json]

Lists the code-exploration tools with their parameters.

Flags:
  --repo DIR    the repository root (default: the current directory)
  --json        print the tool definitions as JSON (what the model receives)
  -h, --help    show this help`,
  explore: `Usage: tool-orchestrator explore "<question>" --repo DIR [flags]

Runs the read-only explorer agent on a repository and prints its JSON report on stdout.
Progress (turns, tool calls, reasoning) goes live to stderr when stderr is a terminal.

Flags:
  --repo DIR            the repository root (default: the current directory)
  --provider NAME       deepseek or openai (default: deepseek when DEEPSEEK_API_KEY is set, else openai)
  --model M             the model name (default: deepseek-v4-flash for deepseek; required for openai)
  --base-url URL        any OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 (Ollama), vLLM, llama.cpp
  --max-turns N         the explorer's turn budget (default: set by its depth, 'normal')
  --depth D             shallow, normal or deep (default: normal)
  --trace FILE.jsonl    write every trace event to FILE, one JSON object a line
  --json                machine output only: the report on stdout, nothing on stderr
  -h, --help            show this help

Keys: DEEPSEEK_API_KEY or OPENAI_API_KEY. A local server given with --base-url needs no key.`,
} as const;
