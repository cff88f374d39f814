/**
 * `pnpm pack:all`: an installable tarball of every package, for installing from a clone before (or without)
 * the npm registry.
 *
 * It builds the packages (`--skip-build` reuses the current dist/), then, for each of packages/*, copies what
 * the package publishes (its `files`, README.md and package.json) into a staging directory, rewrites the
 * manifest and runs `npm pack` there. The tarballs land in `dist-packs/` (gitignored; `--out <dir>` for
 * another folder), one per package with a name that does not change with the version:
 *
 *   dist-packs/xsvc-sdk.tgz  xsvc-cli.tgz  xsvc-server.tgz  xsvc-webhook-verifier.tgz  xsvc-mcp.tgz
 *
 * In each manifest the dependencies on a sibling package (`workspace:^`) become `file:` paths to the sibling
 * tarball (absolute, since npm resolves a relative `file:` of an installed package against that package's own
 * folder), so `npm install /path/to/dist-packs/xsvc-cli.tgz` installs the CLI with the SDK and the verifier of
 * the same build, in any folder. Peer dependencies on a sibling become the version range a release would
 * publish (`^0.1.0`), and development dependencies and scripts are dropped: they mean nothing to an install.
 *
 * The tarballs point at each other by absolute path: move the folder and run `pnpm pack:all --out <new>`.
 * `pnpm release --dry-run` shows what the registry would get instead.
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
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** The tarball file name of a package: `@xsvc/cli` → `xsvc-cli.tgz`. */
export function tarballName(name) {
  return `${name.replace(/^@/, '').replace('/', '-')}.tgz`;
}

/**
 * The manifest as packed: sibling dependencies as `file:` paths into `outDir`, sibling peers as `^version`,
 * no devDependencies or scripts.
 * @param {Record<string, any>} manifest
 * @param {Map<string, string>} versions  every package of the workspace, by name
 * @param {string} outDir  absolute
 */
export function packedManifest(manifest, versions, outDir) {
  const out = { ...manifest };
  delete out.devDependencies;
  delete out.scripts;
  const rewrite = (deps, to) =>
    deps &&
    Object.fromEntries(
      Object.entries(deps).map(([name, range]) => {
        if (!String(range).startsWith('workspace:')) return [name, range];
        if (!versions.has(name))
          throw new Error(`${manifest.name}: ${name} is not a package of this workspace`);
        return [name, to(name)];
      }),
    );
  out.dependencies = rewrite(manifest.dependencies, (name) => `file:${join(outDir, tarballName(name))}`);
  out.peerDependencies = rewrite(manifest.peerDependencies, (name) => `^${versions.get(name)}`);
  out.optionalDependencies = rewrite(
    manifest.optionalDependencies,
    (name) => `file:${join(outDir, tarballName(name))}`,
  );
  for (const k of ['dependencies', 'peerDependencies', 'optionalDependencies']) if (!out[k]) delete out[k];
  return out;
}

/** The packages under packages/ with a manifest, sorted by name. */
export function workspacePackages(root = ROOT) {
  return readdirSync(join(root, 'packages'))
    .filter((d) => existsSync(join(root, 'packages', d, 'package.json')))
    .map((d) => ({
      dir: join(root, 'packages', d),
      manifest: JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8')),
    }))
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/**
 * Packs every package into `outDir` (emptied first). Returns the tarballs written.
 * @param {{ outDir?: string, build?: boolean, log?: (line: string) => void }} [options]
 */
export function packAll({ outDir = join(ROOT, 'dist-packs'), build = true, log = console.log } = {}) {
  const out = resolve(outDir);
  if (build) {
    log('• building the packages');
    const b = spawnSync('pnpm', ['-r', '--filter', './packages/**', 'run', 'build'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (b.status !== 0) throw new Error(`the build failed:\n${b.stdout}${b.stderr}`);
  }
  const packages = workspacePackages();
  const versions = new Map(packages.map((p) => [p.manifest.name, p.manifest.version]));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const staging = mkdtempSync(join(tmpdir(), 'xsvc-pack-'));
  const written = [];
  try {
    for (const { dir, manifest } of packages) {
      if (manifest.private) continue;
      const stage = join(staging, tarballName(manifest.name).replace(/\.tgz$/, ''));
      mkdirSync(stage);
      for (const entry of [...(manifest.files ?? ['dist']), 'README.md', 'LICENSE', 'CHANGELOG.md']) {
        if (!existsSync(join(dir, entry))) {
          if (manifest.files?.includes(entry))
            throw new Error(`${manifest.name}: ${entry} is missing (build first, or drop --skip-build)`);
          continue;
        }
        cpSync(join(dir, entry), join(stage, entry), { recursive: true });
      }
      writeFileSync(
        join(stage, 'package.json'),
        `${JSON.stringify(packedManifest(manifest, versions, out), null, 2)}\n`,
      );
      const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', staging], {
        cwd: stage,
        encoding: 'utf8',
      });
      if (pack.status !== 0) throw new Error(`npm pack of ${manifest.name} failed:\n${pack.stderr}`);
      const [info] = JSON.parse(pack.stdout);
      const target = join(out, tarballName(manifest.name));
      cpSync(join(staging, info.filename), target);
      written.push({ name: manifest.name, version: manifest.version, file: target, size: info.size });
      log(
        `  ${manifest.name}@${manifest.version} → ${target} (${(info.size / 1024).toFixed(0)} kB, ${info.entryCount} files)`,
      );
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--out');
  try {
    const written = packAll({
      build: !argv.includes('--skip-build'),
      ...(at >= 0 && argv[at + 1] ? { outDir: argv[at + 1] } : {}),
    });
    console.log(
      `\n${written.length} tarballs. Install any of them in any folder, e.g.\n  npm install ${written.find((w) => w.name === '@xsvc/cli')?.file ?? written[0]?.file}`,
    );
  } catch (error) {
    console.error(`pack:all: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
