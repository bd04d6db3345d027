import { createCodeTools } from 'tool-orchestrator/explore';
const root = process.argv[2];
const reg = createCodeTools({ root, cache: { directory: '/tmp/scalebench-explore/cache' } });
const ctx = { requestId: 'b', runId: 'b', turnIndex: 0, toolCallId: 'b', signal: new AbortController().signal };
async function call(name, input) {
  const t = performance.now();
  const tool = reg[name];
  const out = await tool.execute(tool.schema.validate(input).value, ctx);
  const s = typeof out === 'string' ? out : JSON.stringify(out);
  console.log(name, JSON.stringify(input), (performance.now() - t).toFixed(0), 'ms', s.length, JSON.stringify(s.slice(0, 300)));
}
for (const [n, i] of JSON.parse(process.argv[3])) await call(n, i);
console.log('maxRSS MB', process.resourceUsage().maxRSS / 1024);
