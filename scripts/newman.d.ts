// The part of newman's Node API that scripts/contract.ts uses (newman ships no types).
declare module 'newman' {
  interface NewmanRunFailure {
    source?: { name?: string };
    error?: { test?: string; message?: string };
  }
  interface NewmanRunSummary {
    run: {
      stats: { requests: { total: number }; assertions: { total: number; failed: number } };
      failures: NewmanRunFailure[];
    };
  }
  interface NewmanRunOptions {
    collection: unknown;
    envVar?: { key: string; value: string }[];
    reporters?: string[];
    timeoutRequest?: number;
    ignoreRedirects?: boolean;
  }
  function run(
    options: NewmanRunOptions,
    callback: (err: Error | null, summary: NewmanRunSummary) => void,
  ): void;
  const newman: { run: typeof run };
  export default newman;
  export type { NewmanRunSummary };
}
