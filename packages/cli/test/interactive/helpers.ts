import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { Xsvc } from '@xsvc/sdk';
import { createHandlers, type MockAnswer } from '@xsvc/sdk/testing';
import { getResponse } from 'msw';
import type { InteractiveContext, InteractiveIO } from '../../src/interactive/types.js';

export const BASE_URL = 'http://svc.test';
export const API_KEY = `svc_${'a'.repeat(64)}`;

/** A writable that keeps what was written, with terminal properties when asked. */
export class Capture extends Writable {
  chunks: string[] = [];
  isTTY: boolean;
  columns = 120;
  rows = 40;
  constructor(tty: boolean) {
    super();
    this.isTTY = tty;
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.chunks.push(chunk.toString());
    cb();
  }
  /** Everything written, escape sequences removed. */
  text(): string {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI escapes
    return this.chunks.join('').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  }
  lines(): string[] {
    return this.text()
      .split('\n')
      .filter((l) => l !== '');
  }
}

/** A terminal stdin that tests type into (what ink's `useInput` reads). */
export class FakeStdin extends EventEmitter {
  isTTY: boolean;
  private buffer: string[] = [];
  constructor(tty: boolean) {
    super();
    this.isTTY = tty;
  }
  /** Types keys: one `readable` event per call, as a terminal delivers a key press. */
  type(data: string): void {
    this.buffer.push(data);
    this.emit('readable');
  }
  read(): string | null {
    return this.buffer.shift() ?? null;
  }
  setEncoding(): this {
    return this;
  }
  setRawMode(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/** Streams for a command: a terminal (`tty`) or pipes. */
export interface FakeIO extends InteractiveIO {
  readonly stdout: Capture;
  readonly stderr: Capture;
  readonly stdin: FakeStdin & NodeJS.ReadableStream;
}

export function fakeIo(tty: boolean): FakeIO {
  return {
    stdout: new Capture(tty),
    stderr: new Capture(tty),
    stdin: new FakeStdin(tty) as FakeStdin & NodeJS.ReadableStream,
    interactive: tty,
    color: false,
  };
}

/** A client whose requests are answered by the SDK's msw handlers (no global patching, no network). */
export function mockClient(overrides: Record<string, MockAnswer> = {}): {
  client: Xsvc;
  requests: Request[];
} {
  const handlers = createHandlers({ baseUrl: BASE_URL, overrides });
  const requests: Request[] = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    requests.push(request.clone());
    const response = await getResponse(handlers, request);
    return response ?? new Response('no mock', { status: 599 });
  };
  const client = new Xsvc({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    fetch: fetchFn as typeof fetch,
    maxRetries: 0,
  });
  return { client, requests };
}

/** The context a command gets. */
export function contextFor(
  client: Xsvc,
  io: FakeIO,
  options: { json?: boolean; signal?: AbortSignal; env?: Record<string, string>; cwd?: string } = {},
): InteractiveContext {
  return {
    client,
    io,
    json: options.json ?? false,
    signal: options.signal ?? new AbortController().signal,
    baseUrl: BASE_URL,
    env: options.env ?? {},
    ...(options.cwd !== undefined && { cwd: options.cwd }),
  };
}

/** A sleep that returns at once, records what was asked, and aborts after `stopAfter` calls. */
export function instantSleep(controller: AbortController, stopAfter = Number.POSITIVE_INFINITY) {
  const waits: number[] = [];
  const sleep = async (ms: number): Promise<void> => {
    waits.push(ms);
    if (waits.length >= stopAfter) controller.abort();
    await Promise.resolve();
  };
  return { sleep, waits };
}

/** The query of a request as a plain object. */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}

/** The JSON lines a command printed. */
export function jsonLines(capture: Capture): unknown[] {
  return capture.lines().map((l) => JSON.parse(l) as unknown);
}
