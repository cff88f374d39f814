#!/usr/bin/env node
import { main } from './cli.js';

const code = main(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
