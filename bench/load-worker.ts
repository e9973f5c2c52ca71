// The child side of bench/load-process.ts: runs one load and posts its result back.
import { type ClosedLoopOptions, runClosedLoop } from './closed-loop.ts';
import { type LoadOptions, type LoadTarget, runLoad } from './load.ts';

export interface ClosedLoopJob {
  kind: 'closed-loop';
  target: LoadTarget;
  options: ClosedLoopOptions;
}

export interface FixedRateJob {
  kind: 'fixed-rate';
  target: LoadTarget;
  options: LoadOptions;
}

const run = (job: ClosedLoopJob | FixedRateJob): Promise<unknown> =>
  job.kind === 'closed-loop' ? runClosedLoop(job.target, job.options) : runLoad(job.target, job.options);

process.once('message', (job: ClosedLoopJob | FixedRateJob) => {
  run(job).then(
    (result) => process.send?.({ ok: true, result }, () => process.exit(0)),
    (err: unknown) => process.send?.({ ok: false, error: String(err) }, () => process.exit(0)),
  );
});
