// `npm run bench:push`: how soon after a post is committed its pushes reach the push service. One person
// posts @everyone in a channel of PUSH_BENCH_PEOPLE (20) subscribed people, PUSH_BENCH_POSTS (100) times
// at PUSH_BENCH_RATE (10) posts a second; each push's arrival at the tests' local HTTPS push service (VAPID
// checked, payload decrypted) is timed from the post's answer (sent once the commit is done) and from the
// request. Target (issue 13): p95 under 1 s from the commit.
import { randomUUID } from 'node:crypto';
import { startPushService } from '../tests/support/push-service.ts';
import { startLantern } from './lantern-fixture.ts';

const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const people = envInt('PUSH_BENCH_PEOPLE', 20);
const posts = envInt('PUSH_BENCH_POSTS', 100);
const rate = envInt('PUSH_BENCH_RATE', 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

async function main(): Promise<void> {
  const push = await startPushService();
  const lantern = await startLantern(people + 1, 1, {
    PUSH_ALLOW_PRIVATE: 'true',
    PUSH_CA_FILE: push.caFile,
    RATE_LIMIT_PER_USER: '100000',
    RATE_LIMIT_PER_IP: '100000',
  });
  const { url, institutionId, channelIds, tokens } = lantern.target;
  const channelId = channelIds[0] as string;
  const call = (token: string, method: string, path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  for (const token of tokens.slice(1)) {
    const res = await call(token, 'PUT', '/api/users/sessions/fcm-token', {
      fcmToken: push.subscribe().subscription,
    });
    if (!res.ok) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
  }

  const answeredAt = new Map<string, number>();
  const sentAt = new Map<string, number>();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < posts; i++) {
    pending.push(
      (async () => {
        const started = performance.now();
        const res = await call(
          tokens[0] as string,
          'POST',
          `/api/institutions/${institutionId}/channels/${channelId}/messages`,
          {
            content: `<p>bench ${i}</p>`,
            genId: randomUUID(),
            mentions: [{ type: 'everyone', id: 'everyone' }],
          },
        );
        const answered = performance.now();
        const body = (await res.json()) as { id: string };
        sentAt.set(body.id, started);
        answeredAt.set(body.id, answered);
      })(),
    );
    await sleep(1000 / rate);
  }
  await Promise.all(pending);
  const expected = posts * people;
  const deadline = Date.now() + 30_000;
  while (push.received.length < expected && Date.now() < deadline) await sleep(50);

  const arrivals = push.received;
  const fromCommit: number[] = [];
  const fromRequest: number[] = [];
  for (const a of arrivals) {
    const id = (a.payload as { messageId: string }).messageId;
    const answered = answeredAt.get(id);
    const sent = sentAt.get(id);
    if (answered === undefined || sent === undefined) continue;
    fromCommit.push(a.at - answered);
    fromRequest.push(a.at - sent);
  }
  fromCommit.sort((a, b) => a - b);
  fromRequest.sort((a, b) => a - b);
  const fmt = (v: number) => `${v.toFixed(0)} ms`;
  console.log(`push bench on ${lantern.database}: ${posts} posts × ${people} subscribed people at ${rate}/s`);
  console.log(
    `pushes received ${push.received.length}/${expected}, refused by the service ${push.refused.length}`,
  );
  console.log(
    `from the post's answer (commit): p50 ${fmt(pct(fromCommit, 0.5))}, p95 ${fmt(pct(fromCommit, 0.95))}, max ${fmt(fromCommit.at(-1) ?? Number.NaN)}`,
  );
  console.log(
    `from the post's request:         p50 ${fmt(pct(fromRequest, 0.5))}, p95 ${fmt(pct(fromRequest, 0.95))}, max ${fmt(fromRequest.at(-1) ?? Number.NaN)}`,
  );
  await lantern.close();
  await push.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
