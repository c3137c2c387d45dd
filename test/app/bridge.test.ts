import { describe, expect, test, vi } from 'vitest';
import { createBridge, createIpcServer, type Dispatch, type Invoke, type Subscribe } from '../../electron/bridge.ts';
import { UNEXPECTED_MESSAGE } from '../../electron/core/errors.ts';
import { ServiceError } from '../../electron/core/types.ts';
import { EVENT_NAMES, OPERATION_NAMES } from '../../shared/ipc.ts';
import type { Result } from '../../shared/models.ts';

/** The IPC stack in memory, as Electron would run it: preload bridge → channel → main's server. */

const ok = (value: unknown): Result<unknown> => ({ ok: true, value });
const noSubscribe: Subscribe = () => () => {};
const TRUSTED = { id: 'window' };
const trusted = (sender: { id: string }) => sender === TRUSTED;

describe('createBridge (window.marquee)', () => {
  test('has one method per operation of the table, and `on`, nothing else', () => {
    const api = createBridge(() => Promise.resolve(ok(null)), noSubscribe);
    const methods = Object.keys(api).filter((k) => k !== 'on');
    expect(methods.sort()).toEqual([...OPERATION_NAMES].sort());
    expect(typeof api.on).toBe('function');
    for (const name of OPERATION_NAMES) expect(typeof api[name]).toBe('function');
  });

  test('each method sends its own operation name with the input', async () => {
    const invoke = vi.fn<Invoke>((name) => Promise.resolve(ok(name)));
    const api = createBridge(invoke, noSubscribe);
    for (const name of OPERATION_NAMES) {
      const call = api[name] as (input: unknown) => Promise<Result<unknown>>;
      await expect(call({ probe: name })).resolves.toEqual(ok(name));
      expect(invoke).toHaveBeenLastCalledWith(name, { probe: name });
    }
  });

  test('`on` subscribes to known events only and returns the unsubscribe function', () => {
    const off = vi.fn();
    const subscribe = vi.fn<Subscribe>(() => off);
    const api = createBridge(() => Promise.resolve(ok(null)), subscribe);
    const listener = () => {};
    for (const event of EVENT_NAMES) expect(api.on(event, listener)).toBe(off);
    expect(subscribe).toHaveBeenCalledTimes(EVENT_NAMES.length);
    expect(() => api.on('no.such.event' as never, listener)).toThrow(/unknown event/);
  });
});

describe('createIpcServer (main side)', () => {
  test('hands a call from the app window to dispatch as it came (dispatch validates it)', async () => {
    const dispatch = vi.fn<Dispatch>(() => Promise.resolve(ok('found')));
    const server = createIpcServer(dispatch, trusted);
    await expect(server.handle(TRUSTED, 'catalog.search', { term: 'matrix', max: 5 })).resolves.toEqual(ok('found'));
    expect(dispatch).toHaveBeenCalledWith('catalog.search', { term: 'matrix', max: 5 });
  });

  test('rejects a sender that is not the app window before anything else', async () => {
    const dispatch = vi.fn<Dispatch>(() => Promise.resolve(ok(null)));
    const server = createIpcServer(dispatch, trusted);
    const result = await server.handle({ id: 'some other frame' }, 'auth.status', {});
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid', status: 403 } });
    expect(dispatch).not.toHaveBeenCalled();
  });

  test('a sender check that throws counts as untrusted', async () => {
    const dispatch = vi.fn<Dispatch>(() => Promise.resolve(ok(null)));
    const server = createIpcServer(dispatch, () => {
      throw new Error('destroyed');
    });
    await expect(server.handle(TRUSTED, 'auth.status', {})).resolves.toMatchObject({
      ok: false,
      error: { status: 403 },
    });
    expect(dispatch).not.toHaveBeenCalled();
  });

  test('a thrown ServiceError comes back as its AppError value', async () => {
    const error = { kind: 'conflict' as const, status: 412, subCode: 710, message: 'The queue changed' };
    const server = createIpcServer(() => Promise.reject(new ServiceError(error)), trusted);
    await expect(
      server.handle(TRUSTED, 'queue.move', { kind: 'instant', ref: 'http://x/t/1', position: 2 }),
    ).resolves.toEqual({ ok: false, error });
  });

  test('any other thrown error comes back as the one generic server error (details only in the log)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = createIpcServer(
      () => Promise.reject(new TypeError('boom at /home/someone/secret/path.ts')),
      trusted,
    );
    await expect(server.handle(TRUSTED, 'auth.status', {})).resolves.toEqual({
      ok: false,
      error: { kind: 'server', message: UNEXPECTED_MESSAGE },
    });
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });

  test('bridge and server compose: a renderer call reaches dispatch and its value comes back', async () => {
    const dispatch = vi.fn<Dispatch>((name, input) => Promise.resolve(ok({ name, input })));
    const server = createIpcServer(dispatch, trusted);
    const api = createBridge((name, input) => server.handle(TRUSTED, name, input), noSubscribe);
    await expect(api['catalog.autocomplete']({ term: 'mat' })).resolves.toEqual(
      ok({ name: 'catalog.autocomplete', input: { term: 'mat' } }),
    );
    expect(dispatch).toHaveBeenCalledTimes(1);
  });
});
