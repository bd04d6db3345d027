/** How far the explorer digs: it sets the child loop's budget of model calls with tools on. */
export type ExplorerDepth = 'shallow' | 'normal' | 'deep';

/**
 * Model calls with tools on, per depth; the report call (and a repair call) come on top.
 * `shallow`: 4 (a grep and a few reads), `normal`: 10, `deep`: 25.
 */
export const explorerDepthTurns: Readonly<Record<ExplorerDepth, number>> = Object.freeze({
  shallow: 4,
  normal: 10,
  deep: 25,
});
