/** One validation problem: where in the value, and what is wrong there. */
export interface SchemaIssue {
  /** Path into the value, e.g. `['items', 0, 'name']`; empty for the root. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Formats issues as `- path: message` lines for a model to act on. */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((issue) => `- ${issueText(issue)}`).join('\n');
}

/** One issue as `path: message` (`(root)` for the root). */
export function issueText(issue: SchemaIssue): string {
  return `${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`;
}
