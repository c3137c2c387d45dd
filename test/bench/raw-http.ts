import net from 'node:net';

/** What the load client reads of a response: its status, body size and Content-Encoding. */
export interface RawResponse {
  status: number;
  bodyBytes: number;
  contentEncoding: string | undefined;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * One keep-alive HTTP/1.1 connection to loopback that sends a request (its bytes prepared by the
 * caller) and reads the response: status line, Content-Length or chunked body, nothing more. What a
 * load generator such as autocannon does, at a fraction of node:http's client cost per request,
 * so that the client, not the server, is not what a row measures. Reconnects after a close.
 */
export class RawConnection {
  private socket: net.Socket | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (r: RawResponse) => void; reject: (e: Error) => void } | undefined;

  constructor(private readonly port: number) {}

  send(request: string): Promise<RawResponse> {
    const socket = this.socket ?? this.connect();
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      socket.write(request);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connect(): net.Socket {
    const socket = net.connect({ host: '127.0.0.1', port: this.port, noDelay: true });
    this.socket = socket;
    this.buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    const fail = (error: Error) => {
      if (this.socket !== socket) return; // a socket already left (closed after "Connection: close")
      this.socket = undefined;
      const w = this.waiting;
      this.waiting = undefined;
      w?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
    return socket;
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const parsed = parseResponse(this.buffered);
    if (!parsed) return;
    this.buffered = this.buffered.subarray(parsed.length);
    const w = this.waiting;
    this.waiting = undefined;
    if (parsed.close) this.close();
    w?.resolve(parsed.response);
  }
}

/** A complete response at the start of `data` and its length in bytes, or undefined when more must arrive. */
export function parseResponse(data: Buffer): { response: RawResponse; length: number; close: boolean } | undefined {
  const end = data.indexOf(HEADER_END);
  if (end < 0) return undefined;
  const head = data.toString('latin1', 0, end);
  const status = Number(head.slice(9, 12));
  let length: number | undefined;
  let chunked = false;
  let contentEncoding: string | undefined;
  let close = false;
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') length = Number(value);
    else if (name === 'transfer-encoding') chunked = value.toLowerCase().includes('chunked');
    else if (name === 'content-encoding') contentEncoding = value;
    else if (name === 'connection') close = value.toLowerCase() === 'close';
  }
  const bodyStart = end + HEADER_END.length;
  if (chunked) {
    const body = chunkedLength(data, bodyStart);
    return body && { response: { status, bodyBytes: body.bytes, contentEncoding }, length: body.end, close };
  }
  const bytes = length ?? 0; // no length: a 304 or 204, whose body is empty
  if (data.length < bodyStart + bytes) return undefined;
  return { response: { status, bodyBytes: bytes, contentEncoding }, length: bodyStart + bytes, close };
}

/** The bytes of a chunked body from `at`, and where it ends (after the last chunk and trailers), once all has arrived. */
function chunkedLength(data: Buffer, at: number): { bytes: number; end: number } | undefined {
  let bytes = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.toString('latin1', at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error('load client: malformed chunked body');
    if (size === 0) {
      const trailerEnd = data.indexOf(HEADER_END, lineEnd);
      if (data.length >= lineEnd + 4 && data[lineEnd + 2] === 13 && data[lineEnd + 3] === 10)
        return { bytes, end: lineEnd + 4 };
      return trailerEnd < 0 ? undefined : { bytes, end: trailerEnd + 4 };
    }
    const next = lineEnd + 2 + size + 2;
    if (data.length < next) return undefined;
    bytes += size;
    at = next;
  }
}
