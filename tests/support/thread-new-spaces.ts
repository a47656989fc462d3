// Run by tests/unit/server/threads.test.ts in a process started with `npm start`'s flags: starts a thread
// through the server's `startThread` asking for the young generation given as argument, lets it and this
// thread fill their young generations with surviving objects (so each grows to its most), and prints both
// new spaces' sizes as JSON: `{ api, thread }` in bytes.
import { getHeapSpaceStatistics } from 'node:v8';
import { startThread } from '../../server/platform/threads';

/** Objects kept alive in batches, so scavenges see survivors and grow the new space to its cap. */
const churn = `function churn() {
  let kept = [];
  for (let i = 0; i < 3_000_000; i++) {
    kept.push({ i, text: 'x' + i });
    if (kept.length > 200_000) kept = [];
  }
  return kept.length;
}`;
const newSpaceBytes = `() => require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size`;

const youngMb = Number(process.argv[2]);
const thread = startThread(
  `${churn}; churn(); require('node:worker_threads').parentPort.postMessage((${newSpaceBytes})());`,
  { oldMb: 256, youngMb },
  {},
);
const threadBytes = await new Promise<number>((resolve, reject) => {
  thread.once('message', resolve);
  thread.once('error', reject);
});
await thread.terminate();
new Function(`${churn}; churn();`)();
const api = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;
console.log(JSON.stringify({ api, thread: threadBytes }));
