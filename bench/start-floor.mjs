// The floor of `npm run bench:start`: the least any server on this stack does before its first answer.
// Node loads Fastify, socket.io and PGlite, opens the same embedded database Lantern would, reads from it,
// and listens; GET /api/users answers 401 as Lantern's does to a stranger. Plain JavaScript, as Lantern's
// built server is. Env: PORT, DATA_DIR (the database is DATA_DIR/db).
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import { Server } from 'socket.io';

const db = await PGlite.create(path.join(process.env.DATA_DIR ?? '.', 'db'));
await db.query('SELECT count(*) FROM users');
const app = Fastify();
app.get('/api/users', async (_request, reply) => reply.code(401).send({ error: 'Sign in first.' }));
new Server(app.server);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
const stop = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
