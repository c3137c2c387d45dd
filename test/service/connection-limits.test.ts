import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../service/server.ts';
import type { FastifyInstance } from 'fastify';
import { openTestDb } from '../helpers/service.ts';
import { within } from '../helpers/within.ts';
import type { Db } from '../../service/store/db.ts';

/**
 * What Node's HTTP layer sees before any route (issue 10, defects 6 and 9): slow requests are cut
 * off, one address cannot hold every connection, and parser errors answer in the `<status>` form
 * with `Connection: close`. Real sockets on loopback, with the limits shortened.
 */
describe('connection limits and parser errors', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let app: FastifyInstance;
  let port: number;
  const PER_IP = 5;

  beforeAll(async () => {
    ({ db, drop } = await openTestDb('sqlite'));
    app = buildServer({
      db,
      baseUrl: 'http://127.0.0.1',
      limits: { requestMs: 1_500, headersMs: 1_000, keepAliveMs: 5_000, idleMs: 20_000, perIp: PER_IP },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await drop();
  });

  /** A raw connection that collects everything the server sends until it closes the connection. */
  const open = () =>
    new Promise<{ socket: Socket; closed: Promise<string> }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve({ socket, closed }));
      let received = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
      socket.on('error', () => {});
      socket.once('error', reject);
      const closed = new Promise<string>((done) => socket.once('close', () => done(received)));
    });

  it('a body trickled in a byte at a time is cut off with 408 in the status form, long before it would end', async () => {
    const { socket, closed } = await open();
    socket.write(
      `POST /catalog/titles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\n`,
    );
    let sent = 0;
    const trickle = setInterval(() => {
      if (socket.writable) socket.write('a');
      sent++;
    }, 100);
    const answer = await closed;
    clearInterval(trickle);
    expect(sent).toBeLessThan(200);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('<status_code>408</status_code>');
    expect(answer.toLowerCase()).toContain('connection: close');
  });

  it('headers that never finish are cut off too', async () => {
    const { socket, closed } = await open();
    socket.write('GET /catalog/titles?term=a HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const trickle = setInterval(() => socket.writable && socket.write('a'), 100);
    const answer = await closed;
    clearInterval(trickle);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a header block over 16 KB is 431 in the status form with Connection: close', async () => {
    const { socket, closed } = await open();
    socket.write(`GET /catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('<status_code>431</status_code>');
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).not.toContain('"statusCode"');
  });

  it('broken framing is 400 in the status form with Connection: close', async () => {
    const { socket, closed } = await open();
    socket.write('POST /catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n');
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('<message>Malformed HTTP request</message>');
    expect(answer.toLowerCase()).toContain('connection: close');
  });

  it(`one address holds at most ${PER_IP} connections: the next is answered 503 and closed; a freed slot is usable again`, async () => {
    const held = await Promise.all(Array.from({ length: PER_IP }, () => open()));
    const extra = await open();
    const refused = await extra.closed;
    expect(refused).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused).toContain('Too many connections from your address');
    held[0]!.socket.destroy();
    await held[0]!.closed;
    const again = await open();
    again.socket.write('GET /catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    // Served (an unsigned request: 401 from the route), not turned away.
    expect(await again.closed).toMatch(/^HTTP\/1\.1 401 /);
    for (const h of held.slice(1)) h.socket.destroy();
  });
});

describe('a stop', () => {
  it('ends although a client is in the middle of a request: the connections still open are cut after the drain time', async () => {
    const { db, drop } = await openTestDb('sqlite');
    const app = buildServer({ db, baseUrl: 'http://127.0.0.1', limits: { drainMs: 500 } });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const socket = connect((app.server.address() as { port: number }).port, '127.0.0.1');
      socket.on('error', () => {});
      await once(socket, 'connect');
      const cut = once(socket, 'close');
      // Headers not finished: Node counts the connection busy, and stops checking its deadlines once the server closes.
      socket.write('GET /catalog/titles?term=alien HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      await new Promise((r) => setTimeout(r, 100));
      await within(app.close(), 'the stop', 15_000);
      await cut;
    } finally {
      await app.close();
      await db.close();
      await drop();
    }
  });
});
