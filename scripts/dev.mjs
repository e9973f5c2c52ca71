// `npm run dev`: the API server (tsx watch, port 3001) and Vite with hot reload (port 3000), which
// proxies /api and /socket.io (websocket) to the server. Ctrl+C stops both; if one dies, so does the other.
import { spawn } from 'node:child_process';

const API_PORT = process.env.API_PORT ?? '3001';
const children = [];
let stopping = false;

function run(name, command, args, env) {
  const child = spawn(command, args, {
    stdio: 'inherit',
    env: { ...process.env, ...env },
    // Own process group, so stopping it also stops what it started (tsx's watcher child, esbuild).
    detached: process.platform !== 'win32',
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[dev] ${name} exited (${signal ?? code}); stopping the other process`);
      stop(code ?? 1);
    }
  });
  children.push(child);
  return child;
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    if (child.exitCode !== null || child.pid === undefined) continue;
    try {
      if (process.platform === 'win32') child.kill('SIGTERM');
      else process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  setTimeout(() => process.exit(code), 1500).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

run('server', 'npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], {
  PORT: API_PORT,
  // In development Vite serves the client; the server must not serve an old build from ./dist.
  CLIENT_DIR: './.tmp/no-client',
  // Never reports errors, and shows refresh failures as toasts (spec §9).
  ENVIRONMENT: 'development',
  PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:3000',
});
run('vite', 'npx', ['vite', '--port', '3000', '--strictPort'], {
  LANTERN_API_URL: `http://localhost:${API_PORT}`,
});
