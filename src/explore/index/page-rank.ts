/** A weighted directed edge. */
export interface WeightedEdge {
  readonly from: string;
  readonly to: string;
  readonly weight: number;
}

/** Options of {@link pageRank}. */
export interface PageRankOptions {
  /** Restart distribution (need not sum to 1); uniform when empty or absent. */
  readonly personalization?: ReadonlyMap<string, number>;
  /** @default 0.85 */
  readonly damping?: number;
  /** @default 100 */
  readonly maxIterations?: number;
  /** Stop when the total change falls below this. @default 1e-9 */
  readonly tolerance?: number;
}

/**
 * Weighted, personalised PageRank by power iteration, as networkx computes it: rank flows
 * along out-edges in proportion to weight, dangling nodes restart on the personalization
 * vector. Returns each node's rank; ranks sum to 1.
 */
export function pageRank(
  nodes: readonly string[],
  edges: readonly WeightedEdge[],
  options: PageRankOptions = {},
): Map<string, number> {
  const damping = options.damping ?? 0.85;
  const count = nodes.length;
  if (count === 0) return new Map();
  const indexOf = new Map(nodes.map((node, index) => [node, index]));
  const restart = new Float64Array(count);
  let restartTotal = 0;
  for (const [node, value] of options.personalization ?? []) {
    const index = indexOf.get(node);
    if (index !== undefined && value > 0) {
      restart[index] = (restart[index] ?? 0) + value;
      restartTotal += value;
    }
  }
  if (restartTotal === 0) restart.fill(1 / count);
  else for (let index = 0; index < count; index += 1) restart[index] = (restart[index] ?? 0) / restartTotal;

  const outWeight = new Float64Array(count);
  const sources: number[] = [];
  const targets: number[] = [];
  const weights: number[] = [];
  for (const edge of edges) {
    const from = indexOf.get(edge.from);
    const to = indexOf.get(edge.to);
    if (from === undefined || to === undefined || !(edge.weight > 0)) continue;
    sources.push(from);
    targets.push(to);
    weights.push(edge.weight);
    outWeight[from] = (outWeight[from] ?? 0) + edge.weight;
  }

  let rank = new Float64Array(count).fill(1 / count);
  for (let iteration = 0; iteration < (options.maxIterations ?? 100); iteration += 1) {
    const next = new Float64Array(count);
    let dangling = 0;
    for (let index = 0; index < count; index += 1) if (outWeight[index] === 0) dangling += rank[index] ?? 0;
    for (let edge = 0; edge < sources.length; edge += 1) {
      const from = sources[edge] ?? 0;
      const to = targets[edge] ?? 0;
      next[to] =
        (next[to] ?? 0) + (damping * (rank[from] ?? 0) * (weights[edge] ?? 0)) / (outWeight[from] ?? 1);
    }
    let change = 0;
    for (let index = 0; index < count; index += 1) {
      const value = (next[index] ?? 0) + (damping * dangling + (1 - damping)) * (restart[index] ?? 0);
      change += Math.abs(value - (rank[index] ?? 0));
      next[index] = value;
    }
    rank = next;
    if (change < count * (options.tolerance ?? 1e-9)) break;
  }
  return new Map(nodes.map((node, index) => [node, rank[index] ?? 0]));
}
