import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { unguardCsv } from '../src/output/csv-unguard.js';
import { api, cli, serveMockedApi, V1 } from './helpers.js';

serveMockedApi();

/** The transform's output for `input` cut into chunks of `size` bytes. */
async function unguarded(input: string, size = 1 << 16): Promise<string> {
  const bytes = Buffer.from(input);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return text(Readable.from(chunks).pipe(unguardCsv()));
}

const GUARDED =
  'user,text\r\n' + "jack,'@reply hi\r\n" + `biz,"'=1+1, said ""x"""\r\n` + "ev,'-5 ''quoted''\r\n";
const PLAIN = 'user,text\r\n' + 'jack,@reply hi\r\n' + `biz,"=1+1, said ""x"""\r\n` + "ev,-5 ''quoted''\r\n";

describe('undoing the CSV formula guard', () => {
  it("drops the guard's ' before =, +, -, @, tab and CR, quoted or not", async () => {
    expect(await unguarded(GUARDED)).toBe(PLAIN);
    expect(await unguarded('a,\'\tb,"\'\rc"\n')).toBe('a,\tb,"\rc"\n');
  });

  it("keeps every other ', mid-field apostrophes and quoted commas alike", async () => {
    const other = "name,note\r\n'quoted',it's\r\n\"x,'=y\",'\r\n";
    expect(await unguarded(other)).toBe(other);
  });

  it('gives the same bytes whatever the chunking, multi-byte characters included', async () => {
    const input = `${GUARDED}ü,"'@日本語 👋"\r\n`;
    const expected = `${PLAIN}ü,"@日本語 👋"\r\n`;
    for (const size of [1, 2, 3, 5, 64]) expect(await unguarded(input, size)).toBe(expected);
  });
});

describe('--no-formula-guard on a CSV export', () => {
  const DRAW = '00000000-0000-4000-8000-0000000000d1';

  it('saves the text as posted; without it the file is left as the service sent it', async () => {
    api.use(
      http.get(
        `${V1}/draws/:id/export`,
        () => new HttpResponse(GUARDED, { headers: { 'content-type': 'text/csv; charset=utf-8' } }),
      ),
    );
    const raw = await cli(['draws', 'export', DRAW, '--format', 'csv', '--no-formula-guard']);
    expect(raw.code).toBe(0);
    expect(raw.stdout).toBe(PLAIN);
    const guarded = await cli(['draws', 'export', DRAW, '--format', 'csv']);
    expect(guarded.stdout).toBe(GUARDED);
  });

  it('is offered where a command can answer CSV', async () => {
    expect((await cli(['draws', 'export', '--help'])).stdout).toContain('--no-formula-guard');
    expect((await cli(['tweets', 'get', '--help'])).stdout).not.toContain('--no-formula-guard');
  });
});
