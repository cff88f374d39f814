import { PaymentRequiredError, parsePaymentReceipt, type Xsvc } from '@xsvc/sdk';
import type { CallParams, CallResult, Route } from '@xsvc/sdk/transport';
import type { OptionValues } from 'commander';
import type { Credentials } from '../config/resolve.js';
import { AuthRequiredError, CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { type CliIO, canPrompt } from '../io.js';
import type { Output } from '../output/output.js';
import type { CommandSpec } from '../table/types.js';

/**
 * How a command that accepts machine payments (spec 5.4) is paid: `pay` when `--pay` was given (pay
 * without asking), `offer` when no API key is configured (ask on a terminal), undefined to use credits.
 */
export type PaymentMode = 'pay' | 'offer';

/** The payment mode of this run of `spec`. */
export function paymentModeOf(
  spec: CommandSpec,
  opts: OptionValues,
  creds: Credentials,
): PaymentMode | undefined {
  if (spec.machinePayment === undefined) return undefined;
  if (opts.pay === true) return 'pay';
  return creds.apiKey === undefined ? 'offer' : undefined;
}

/** What {@link callWithPayment} needs of the run. */
export interface PaymentRun {
  readonly io: CliIO;
  readonly out: Output;
  readonly creds: Credentials;
  readonly mode: PaymentMode;
}

/** `150` micro-US-dollars as `USD 0.00015`. */
function usd(microUsd: string): string {
  const n = Number(microUsd);
  return Number.isFinite(n) ? `USD ${(n / 1e6).toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}` : microUsd;
}

/** Asks a yes/no question on the terminal (stderr); only `y` or `yes` is a yes. */
async function confirm(io: CliIO, question: string): Promise<boolean> {
  // Loaded here, not with the module: a call that pays without asking (or uses credits) never reads a line.
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  io.stderr.write(question);
  return new Promise((resolve) => {
    let answered = false;
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(/^y(es)?$/i.test(line.trim()));
    });
    rl.once('close', () => {
      if (!answered) resolve(false);
    });
  });
}

/** The method payload of a payment made on the payment network (the simulated platform's `/sim/payments`). */
async function payOnNetwork(run: PaymentRun, challenge: string): Promise<unknown> {
  const { io, creds } = run;
  const payer = io.env.XSVC_PAYMENT_KEY || creds.apiKey;
  if (!payer) {
    throw new AuthRequiredError(
      'paying needs a credential of the payment network',
      'Set XSVC_PAYMENT_KEY (on a self-hosted server: the owner API key that pays on its simulated network).',
    );
  }
  const url = io.env.XSVC_PAYMENT_NETWORK_URL || `${creds.baseUrl.replace(/\/$/, '')}/sim/payments`;
  const res = await (io.fetch ?? fetch)(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': payer },
    body: JSON.stringify({ challenge }),
  });
  const body = (await res.json().catch(() => undefined)) as
    | { payload?: unknown; message?: string }
    | undefined;
  if (!res.ok || body?.payload === undefined) {
    throw new CliError(
      `the payment network refused the payment (${res.status}${body?.message ? `: ${body.message}` : ''})`,
      ExitCode.paymentRequired,
      'Nothing was charged for the read; check the payment network credential.',
      'payment_failed',
    );
  }
  return body.payload;
}

/**
 * Calls a machine-payment read without an API key. On its 402 challenge, pays only after the user said
 * yes on a terminal, or when `--pay` was given; elsewhere nothing is paid and the error says how to pay.
 * Then retries once with the `Authorization: Payment …` credential and notes the receipt on stderr.
 */
export async function callWithPayment<T>(
  client: Xsvc,
  route: Route,
  params: CallParams,
  run: PaymentRun,
): Promise<CallResult<T>> {
  const signal = run.io.signal ? { signal: run.io.signal } : {};
  let challenged: PaymentRequiredError;
  try {
    return await client.transport.call<T>(route, params, signal);
  } catch (err) {
    if (!(err instanceof PaymentRequiredError) || !err.paymentChallenge) throw err;
    challenged = err;
  }
  const challenge = challenged.paymentChallenge!;
  const request = challenge.request as { amount?: string; recipient?: string } | undefined;
  const price = request?.amount ? usd(request.amount) : 'a machine payment';
  if (run.mode === 'offer') {
    if (!canPrompt(run.io)) {
      throw new CliError(
        `this read costs ${price} by machine payment, and no API key is configured`,
        ExitCode.paymentRequired,
        'Run it again with --pay to pay, or `xsvc login` to use credits. Nothing was charged.',
        challenged.code,
      );
    }
    const to = request?.recipient ? ` to ${request.recipient}` : '';
    if (!(await confirm(run.io, `Pay ${price}${to} for this call? [y/N] `))) {
      throw new CliError('not paid', ExitCode.paymentRequired, 'Nothing was charged.', 'cancelled');
    }
  }
  const payload = await payOnNetwork(run, challenge.raw);
  const authorization = challenged.paymentAuthorization({ payload });
  const res = await client.transport.call<T>(route, params, { ...signal, headers: { authorization } });
  const receipt = parsePaymentReceipt(res.headers.get('payment-receipt') ?? '');
  run.out.note(
    run.out.errStyle.dim(`Paid ${price}${receipt?.reference ? ` (receipt ${receipt.reference})` : ''}.`),
  );
  return res;
}
