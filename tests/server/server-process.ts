// `npm run serve` (server/main.ts) as a real child process on a data folder, for tests of what only a
// process shows: signals, shutdown, and starting again on restored data. Sign-in codes are read from the
// mail folder.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SigninResponse } from '../../schemas/protocol/index.ts';
import { makeApi, type TestUser, uniqueEmail } from './harness.ts';

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  output(): string;
  signUp(email?: string): Promise<TestUser>;
}

export async function startServerProcess(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = 30_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CLIENT_DIR: path.join(dataDir, 'no-client'),
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      OTP_PER_IP_PER_HOUR: '100000',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const match = /Lantern is running at (\S+)"/.exec(output);
      if (match?.[1]) resolve(match[1].replace('localhost', '127.0.0.1'));
    };
    child.stdout.on('data', look);
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  const mailDir = path.join(dataDir, 'mail');
  const lastCode = (email: string) => {
    const newest = readdirSync(mailDir)
      .filter((f) => f.includes(`-${email}-`))
      .sort()
      .at(-1);
    const code = newest
      ? /Subject: Your Lantern sign-in code: (\d{6})/.exec(readFileSync(path.join(mailDir, newest), 'utf8'))
      : null;
    if (!code?.[1]) throw new Error(`no code mailed to ${email}`);
    return code[1];
  };
  return {
    child,
    url,
    exited,
    output: () => output,
    async signUp(email = uniqueEmail()) {
      const anon = makeApi(url);
      await anon.get(`/api/auth/signin_otp?email=${encodeURIComponent(email)}`);
      const signedIn = await anon.post<SigninResponse>('/api/auth/signin', { email, code: lastCode(email) });
      if (signedIn.status !== 200) throw new Error(`signin: ${signedIn.status}`);
      const { accessToken, user } = signedIn.body;
      return { token: accessToken, user, api: makeApi(url, accessToken) };
    },
  };
}
