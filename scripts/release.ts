/**
 * `pnpm release --dry-run`: everything a release does except publishing, without touching the working tree.
 *
 * 1. Versions: copies the workspace manifests and `.changeset/` into a temporary directory and runs
 *    `changeset version` there, which bumps the five published packages and writes their CHANGELOG.md.
 * 2. Builds the packages (`pnpm -r --filter ./packages/** build`; `--skip-build` reuses the current dist/).
 * 3. For each published package, in the temporary copy with its new version: `publint --strict`, `pnpm pack`
 *    (workspace dependencies become the new versions) and are-the-types-wrong on the tarball, with the
 *    package's own profile.
 *
 * 4. Prints the plan: per package its name, the version now and the version it would publish, the npm
 *    dist-tag (`latest`, the pre-release tag of `.changeset/pre.json` in pre mode, or the manifest's
 *    `publishConfig.tag`), the access, and every file of the tarball with its size.
 *
 * Publishing itself is CI's job (`changeset version`, commit, `changeset publish`); this script never does it.
 * `--keep` keeps the temporary directory (the tarballs and changelogs) for inspection.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'node_modules/.bin');
const args = new Set(process.argv.slice(2));

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  scripts?: Record<string, string>;
  files?: string[];
  publishConfig?: { tag?: string; access?: string };
}

/** The dist-tag `changeset publish` gives a package: the manifest's, pre mode's, else `latest`. */
export function distTag(manifest: Manifest, pre: { mode?: string; tag?: string } | undefined): string {
  return manifest.publishConfig?.tag ?? (pre?.mode === 'pre' && pre.tag ? pre.tag : 'latest');
}

/** The files of a tarball with their sizes (bytes), from `tar -tvzf`. */
export function tarballFiles(tgz: string): { path: string; size: number }[] {
  const r = spawnSync('tar', ['-tvzf', tgz], { encoding: 'utf8' });
  if (r.status !== 0) return [];
  return r.stdout
    .split('\n')
    .map((l) => /^\S+\s+\S+\s+(\d+)\s+\S+\s+\S+\s+(.+)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && !m[2]!.endsWith('/'))
    .map((m) => ({ path: m[2]!.replace(/^package\//, ''), size: Number(m[1]) }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

const kB = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} kB`);

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

function sh(cmd: string, argv: string[], cwd: string, quiet = false): { ok: boolean; out: string } {
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (!quiet && r.status !== 0) process.stderr.write(out);
  return { ok: r.status === 0, out };
}

/** The packages `changeset publish` would publish: every non-private package under packages/. */
export function publishedPackages(root = ROOT): { dir: string; manifest: Manifest }[] {
  return readdirSync(join(root, 'packages'))
    .map((d) => ({ dir: `packages/${d}`, path: join(root, 'packages', d, 'package.json') }))
    .filter((p) => existsSync(p.path))
    .map((p) => ({ dir: p.dir, manifest: readJson<Manifest>(p.path) }))
    .filter((p) => !p.manifest.private)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

function main(): number {
  if (!args.has('--dry-run')) {
    console.error(
      'usage: pnpm release --dry-run [--skip-build] [--keep]\n' +
        'Publishing runs in CI: `changeset version`, commit, then `changeset publish`.',
    );
    return 2;
  }
  const packages = publishedPackages();
  const tmp = mkdtempSync(join(tmpdir(), 'xsvc-release-'));
  let failed = false;
  try {
    // 1. Version in a copy: the manifests, README/CHANGELOG files and the pending changesets.
    for (const f of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(ROOT, f), join(tmp, f));
    cpSync(join(ROOT, '.changeset'), join(tmp, '.changeset'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(tmp, 'node_modules'), 'dir');
    for (const { dir } of packages) {
      mkdirSync(join(tmp, dir), { recursive: true });
      for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'])
        if (existsSync(join(ROOT, dir, f))) cpSync(join(ROOT, dir, f), join(tmp, dir, f));
    }
    const pending = readdirSync(join(tmp, '.changeset')).filter(
      (f) => f.endsWith('.md') && f !== 'README.md',
    );
    console.log(`• ${pending.length} changesets pending`);
    if (!sh(join(BIN, 'changeset'), ['version'], tmp).ok) return 1;

    // 2. Build.
    if (!args.has('--skip-build')) {
      console.log('• building the packages');
      if (!sh('pnpm', ['-r', '--filter', './packages/**', 'run', 'build'], ROOT).ok) return 1;
    }

    // 3. Check and pack each package as it would be published, its workspace dependencies turned into the
    //    new versions as `pnpm publish` does (the copy has no node_modules for pnpm to resolve them from).
    const versions = new Map(
      packages.map(({ dir, manifest }) => [
        manifest.name,
        readJson<Manifest>(join(tmp, dir, 'package.json')).version,
      ]),
    );
    for (const { dir } of packages) {
      const path = join(tmp, dir, 'package.json');
      const text = readFileSync(path, 'utf8').replace(
        /"(@xsvc\/[\w-]+)": "workspace:([~^*]?)[^"]*"/g,
        (_m, name: string, range: string) =>
          `"${name}": "${range === '*' ? '' : range}${versions.get(name)}"`,
      );
      writeFileSync(path, text);
    }
    const pre = existsSync(join(tmp, '.changeset/pre.json'))
      ? readJson<{ mode?: string; tag?: string }>(join(tmp, '.changeset/pre.json'))
      : undefined;
    const access = readJson<{ access?: string }>(join(tmp, '.changeset/config.json')).access ?? 'restricted';
    const tarballs = join(tmp, 'tarballs');
    mkdirSync(tarballs);
    const rows: string[] = [];
    for (const { dir, manifest } of packages) {
      const copy = join(tmp, dir);
      const next = readJson<Manifest>(join(copy, 'package.json'));
      // What the package publishes (its `files`: dist/, the bin shims), copied as built.
      for (const entry of next.files ?? ['dist'])
        if (existsSync(join(ROOT, dir, entry)))
          cpSync(join(ROOT, dir, entry), join(copy, entry), { recursive: true });
      const publint = sh(join(BIN, 'publint'), ['--strict'], copy);
      const before = new Set(readdirSync(tarballs));
      const pack = sh('pnpm', ['pack', '--pack-destination', tarballs], copy);
      const tgz = readdirSync(tarballs).find((f) => !before.has(f));
      const profile = /--profile\s+(\S+)/.exec(manifest.scripts?.['check:package'] ?? '')?.[1] ?? 'node16';
      const attw = tgz
        ? sh(
            join(BIN, 'attw'),
            [join(tarballs, tgz), '--profile', profile, '--format', 'table-flipped'],
            copy,
          )
        : { ok: false, out: '' };
      const changelog = readFileSync(join(copy, 'CHANGELOG.md'), 'utf8')
        .split('\n')
        .slice(0, 6)
        .join(' ')
        .trim();
      const ok = publint.ok && pack.ok && attw.ok;
      failed ||= !ok;
      const files = tgz ? tarballFiles(join(tarballs, tgz)) : [];
      const unpacked = files.reduce((n, f) => n + f.size, 0);
      const packed = tgz ? statSync(join(tarballs, tgz)).size : 0;
      rows.push(
        `${ok ? '✓' : '✗'} ${manifest.name} ${manifest.version} → ${next.version}  ` +
          `npm dist-tag ${distTag(next, pre)}, access ${next.publishConfig?.access ?? access}\n` +
          `    ${tgz ?? 'no tarball'}: ${kB(packed)} packed, ${kB(unpacked)} unpacked, ${files.length} files; ` +
          `publint ${publint.ok ? 'ok' : 'FAILED'}, attw (${profile}) ${attw.ok ? 'ok' : 'FAILED'}\n` +
          files.map((f) => `    ${kB(f.size).padStart(10)}  ${f.path}\n`).join('') +
          `    CHANGELOG.md: ${changelog.slice(0, 160)}${changelog.length > 160 ? '…' : ''}\n`,
      );
    }
    console.log(
      `\nRelease plan (dry run: nothing was published, the working tree is unchanged). ` +
        `\`changeset publish\` would publish, to ${'https://registry.npmjs.org'}:\n`,
    );
    console.log(rows.join('\n'));
    if (args.has('--keep')) console.log(`\nkept: ${tmp}`);
    return failed ? 1 : 0;
  } finally {
    if (!args.has('--keep')) rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) process.exitCode = main();
