#!/usr/bin/env node
// The installed command. It is a committed file, so that installing the workspace can link it before the
// package is built; the program itself is dist/bin.js.
import '../dist/bin.js';
