// Runs a load in a child process, so the load generator's own work (connecting, parsing every delivery)
// does not share the server's event loop: on a 2-core machine each gets a core, as with a real client.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const worker = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

/** Sends `job` to bench/load-worker.ts in a fresh process and resolves with what it answers. */
export function inChildProcess<J, R>(job: J): Promise<R> {
  return new Promise((resolve, reject) => {
    const child = fork(worker, [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    child.once('message', (answer: { ok: true; result: R } | { ok: false; error: string }) => {
      child.kill();
      if (answer.ok) resolve(answer.result);
      else reject(new Error(answer.error));
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code) reject(new Error(`load process exited with ${code}`));
    });
    child.send(job as object);
  });
}
