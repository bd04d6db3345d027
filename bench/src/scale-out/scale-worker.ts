/**
 * A run worker process of the scale-out benchmark: argv[2] is JSON `{ port, queueName, concurrency }`.
 * Prints READY once it takes runs, and closes on SIGTERM.
 */
import { createRunWorker } from 'tool-orchestrator/bullmq';
import { scaleOrchestrator } from './scale-script.js';

const { port, queueName, concurrency } = JSON.parse(process.argv[2] ?? '{}') as {
  port: number;
  queueName: string;
  concurrency: number;
};
const orchestrator = scaleOrchestrator();
const worker = createRunWorker({
  connection: { host: '127.0.0.1', port },
  queueName,
  concurrency,
  orchestrator: () => orchestrator,
});
await worker.waitUntilReady();
process.stdout.write('READY\n');
process.once('SIGTERM', () => {
  void worker.close().then(() => process.exit(0));
});
