import type { ToolAnnotations } from '../../tools/tool-annotations.js';

/**
 * What every code tool declares about itself, and MCP servers publish: it only reads, only inside
 * the repository (a closed world), and the same call has no further effect when repeated.
 */
export const readOnlyCodeToolAnnotations: ToolAnnotations = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});
