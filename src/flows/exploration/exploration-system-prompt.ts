/** The system prompt of {@link ExplorationOrchestrator}, with `{prompt}` and `{repo_root}` placeholders. */
export const explorationSystemPromptTemplate = `You are exploring a codebase to write documentation.

Use the available tools to understand the codebase structure:
- list_files: See what files exist
- read_file: Read file contents
- get_symbols: See functions/classes in a file
- get_imports: See dependencies
- get_definition: Find where something is defined
- get_references: Find where something is used
- get_structure: Get overview of a file
- search_text: Search for strings/comments

When you understand enough to write the requested documentation,
call finish_exploration with a summary of what you learned.

User's request: {prompt}

Repository root: {repo_root}`;

/** The eight code tools the exploration prompt names, in prompt order. */
export const explorationToolNames = [
  'list_files',
  'read_file',
  'get_symbols',
  'get_imports',
  'get_definition',
  'get_references',
  'get_structure',
  'search_text',
] as const;

/** Fills the template's `{prompt}` and `{repo_root}` (each once, literally: no `$` patterns). */
export function explorationSystemPrompt(prompt: string, repoRoot: string): string {
  return explorationSystemPromptTemplate
    .replace('{prompt}', () => prompt)
    .replace('{repo_root}', () => repoRoot);
}
