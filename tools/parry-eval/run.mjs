import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';
const wasi = new WASI({ version: 'preview1', args: ['eval', process.argv[2] ?? '20000'] });
const mod = await WebAssembly.compile(readFileSync(process.argv[3]));
const inst = await WebAssembly.instantiate(mod, wasi.getImportObject());
wasi.start(inst);
