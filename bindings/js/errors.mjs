// errors.mjs: refused calls (BoidsError, the C ABI's result codes) and the checks every
// argument passes before any call into the module: a refusal changes nothing.

const RESULT_NAMES = ['OK', 'NULL_POINTER', 'INVALID_ID', 'INVALID_ARGUMENT', 'BUFFER_TOO_SMALL', 'BUSY', 'PANIC', 'INVALID_DEF', 'NOT_FOUND'];

/** BoidsError code of a call refused because the module's memory cannot grow enough for it
 * (this binding's own code: the C ABI has none). The instance and every world are intact. */
export const OUT_OF_MEMORY = 100;

/** The C ABI's BOIDS_RESULT_NOT_FOUND. */
export const NOT_FOUND = 8;

const resultName = (code) => (code === OUT_OF_MEMORY ? 'OUT_OF_MEMORY' : RESULT_NAMES[code] ?? `RESULT_${code}`);

/** A refused call: `result` is the code's name ('INVALID_ARGUMENT', 'BUSY', ...), `code` its
 * number, `detail` the library's sentence. */
export class BoidsError extends Error {
  constructor(code, detail) {
    const result = resultName(code);
    super(`${result}: ${detail}`);
    this.name = 'BoidsError';
    this.code = code;
    this.result = result;
    this.detail = detail;
  }
}

// ---- Arguments: checked here, before any call into the module; a refusal changes nothing. ----

export const refuse = (sentence) => new BoidsError(3, sentence);
export const shown = (v) => (typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v) : String(v));

/** A count: a whole number from 0 to 2^32 - 1 (a u32). */
export function u32(v, what) {
  if (!Number.isSafeInteger(v) || v < 0 || v > 0xFFFFFFFF) {
    throw refuse(`${what} must be a whole number from 0 to 4294967295, got ${shown(v)}`);
  }
  return v;
}

/** A seed: a whole number from 0 to 2^64 - 1, as a number (up to 2^53 - 1) or a BigInt. */
export function u64(v, what) {
  if (typeof v === 'bigint') {
    if (v < 0n || v > 0xFFFFFFFFFFFFFFFFn) throw refuse(`${what} must be from 0 to 2^64 - 1, got ${shown(v)}`);
    return v;
  }
  if (!Number.isSafeInteger(v) || v < 0) {
    throw refuse(`${what} must be a whole number from 0 to 2^53 - 1, or a BigInt up to 2^64 - 1, got ${shown(v)}`);
  }
  return BigInt(v);
}

/** A name: a string. */
export function text(v, what) {
  if (typeof v !== 'string') throw refuse(`${what} must be a string, got ${shown(v)}`);
  return v;
}
