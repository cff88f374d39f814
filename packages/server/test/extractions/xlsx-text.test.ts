/**
 * XML text of the XLSX export's cells: markup escaped, what XML 1.0 forbids dropped (controls, U+FFFE/F,
 * lone surrogates), surrogate pairs kept. The single-scan writer is checked on fixed cases and against the
 * plain regex statement of the rule on many generated strings (a fixed seed: the same strings every run).
 */
import { describe, expect, it } from 'vitest';
import { xmlText } from '../../src/core/exports/xlsx.js';

/** The rule stated with regexes: drop what XML 1.0 forbids, then escape the markup. */
function byRegex(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

describe('xlsx cell text', () => {
  it('escapes markup, drops forbidden characters and keeps pairs', () => {
    expect(xmlText('plain text, 山田')).toBe('plain text, 山田');
    expect(xmlText('a "b" <c> & d')).toBe('a &quot;b&quot; &lt;c&gt; &amp; d');
    expect(xmlText('tab\tline\nret\r')).toBe('tab\tline\nret\r');
    expect(xmlText('bell\u0007 nul\u0000 \uFFFE\uFFFF end')).toBe('bell nul  end');
    expect(xmlText('emoji 📷 & 👍🏽')).toBe('emoji 📷 &amp; 👍🏽');
    expect(xmlText('lone \uD83D high, lone \uDCF7 low')).toBe('lone  high, lone  low');
    expect(xmlText('\uD83D\uD83D\uDCF7')).toBe('\uD83D\uDCF7');
    expect(xmlText('&')).toBe('&amp;');
    expect(xmlText('\uD800')).toBe('');
  });

  it('agrees with the regex statement of the rule', () => {
    const units = [0, 1, 8, 9, 10, 11, 13, 31, 32, 34, 38, 60, 62, 65, 0x5c71, 0xd7ff, 0xd800, 0xdbff];
    units.push(0xdc00, 0xdfff, 0xe000, 0xfffd, 0xfffe, 0xffff);
    let seed = 42;
    const next = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed >>> 16;
    };
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      const len = next() % 9;
      for (let i = 0; i < len; i++) text += String.fromCharCode(units[next() % units.length] as number);
      expect(xmlText(text), JSON.stringify(text)).toBe(byRegex(text));
    }
  });
});
