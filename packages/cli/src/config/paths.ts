import { isAbsolute, join } from 'node:path';
import type { CliIO } from '../io.js';

/**
 * The config file: `$XDG_CONFIG_HOME/xsvc/config.json`, or `~/.config/xsvc/config.json` when the variable is
 * unset or not an absolute path (as the XDG Base Directory specification says to treat it).
 */
export function configFile(io: Pick<CliIO, 'env' | 'home'>): string {
  const xdg = io.env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(io.home, '.config');
  return join(base, 'xsvc', 'config.json');
}
