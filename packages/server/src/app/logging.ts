import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { prettyFactory } from 'pino-pretty';
import type { Config } from '../core/config.js';

/** How the server's log is written: JSON lines (collectors, files) or readable lines (a terminal). */
export type LogFormat = 'json' | 'pretty';

/** A stream whose `isTTY` tells whether a person reads it. */
export interface MaybeTerminal {
  readonly isTTY?: boolean | undefined;
}

/**
 * The log format `LOG_FORMAT` asks for: `json` and `pretty` as said; `auto` is pretty when `stream` (the
 * bin's standard output) is a terminal and JSON otherwise (pipes, files, containers, CI).
 */
export function resolveLogFormat(setting: Config['logFormat'], stream: MaybeTerminal): LogFormat {
  if (setting === 'json' || setting === 'pretty') return setting;
  return stream.isTTY === true ? 'pretty' : 'json';
}

/** Log-record keys the readable line leaves out: the process, and what the request line says in words. */
const PRETTY_IGNORE = 'pid,hostname,reqId,req,res,responseTime,method,url,statusCode';

/**
 * A pino destination that writes each record as one readable line, formatted by pino-pretty's own
 * `prettyFactory` (synchronously, so the last lines before an exit are not lost in a transport thread).
 */
export function prettyDestination(
  out: NodeJS.WritableStream & MaybeTerminal,
  env: Record<string, string | undefined> = process.env,
): { write(line: string): void } {
  const colorize = out.isTTY === true && env.NO_COLOR === undefined;
  const format = prettyFactory({
    colorize,
    translateTime: 'SYS:HH:MM:ss',
    ignore: PRETTY_IGNORE,
    singleLine: true,
  });
  return { write: (line: string) => void out.write(format(line)) };
}

/**
 * Fastify's logger options: off when silent, else at the configured level; JSON to `stream` (default
 * standard output), or readable lines through {@link prettyDestination}.
 */
export function loggerOptions(config: Config, format: LogFormat, stream: NodeJS.WritableStream | undefined) {
  if (config.logLevel === 'silent') return false;
  if (format === 'pretty')
    return { level: config.logLevel, stream: prettyDestination(stream ?? process.stdout) };
  return stream ? { level: config.logLevel, stream } : { level: config.logLevel };
}

/**
 * The readable format's request log: one line when a request is answered (method, URL, status, time) instead
 * of Fastify's two records (received, completed), through Fastify's own log controller.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const ms = reply.elapsedTime;
    const fields = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: ms,
    };
    const line = `${request.method} ${request.url} ${reply.statusCode} ${ms.toFixed(1)} ms`;
    if (error) reply.log.error({ ...fields, err: error }, line);
    else reply.log.info(fields, line);
  }
}
