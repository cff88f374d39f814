#!/usr/bin/env node
// The installed command. It is a committed file, so that installing the workspace can link it before the
// package is built; the program itself is dist/bin.js.
//
// On Node 22.1 and later, Node's module compile cache (V8 code cache kept on disk, in
// `os.tmpdir()/node-compile-cache` unless NODE_COMPILE_CACHE names another folder) spares each later start
// most of the compiling of the program's modules. It is enabled before they are imported, hence the dynamic
// import below. It never throws (a folder it cannot write only leaves it off), NODE_DISABLE_COMPILE_CACHE=1
// turns it off, and on Node 20 the function does not exist: nothing changes there.
import module from 'node:module';

module.enableCompileCache?.();
await import('../dist/bin.js');
