// The wasm ABI as js/src names it (js/src/backend/wasm/abi.ts) against the
// C++ side: the descriptor layout bindings/bindings.cpp pins with
// static_asserts (which fail its build if the C++ structs differ), the op
// ids of src/ops.h, and the status codes of src/status.h. A change on either
// side that the other does not follow fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as abi from '../../js/src/backend/wasm/abi';
import { OP_NAMES } from '../../js/src/core/spec';

const ROOT = join(__dirname, '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** The static_asserts' facts about a struct: `offsetof(onnx_ops::S, field) == n` and `sizeof(onnx_ops::S) == n`. */
function pinned(source: string, struct: string): Map<string, number> {
  const facts = new Map<string, number>();
  for (const m of source.matchAll(new RegExp(`offsetof\\(onnx_ops::${struct},\\s*(\\w+)\\)\\s*==\\s*(\\d+)`, 'g'))) {
    facts.set(m[1], Number(m[2]));
  }
  for (const m of source.matchAll(new RegExp(`sizeof\\(onnx_ops::${struct}\\)\\s*==\\s*(\\d+)`, 'g'))) facts.set('sizeof', Number(m[1]));
  return facts;
}

/** The enumerators of `enum class <name>` with their values. */
function enumerators(source: string, name = 'Status'): Map<string, number> {
  const body = new RegExp(`enum class ${name}\\b[^{]*\\{([^}]*)\\}`).exec(source);
  if (!body) throw new Error(`no enum class ${name}`);
  const out = new Map<string, number>();
  for (const m of body[1].replace(/\/\/.*$/gm, '').matchAll(/(\w+)\s*=\s*(\d+)/g)) out.set(m[1], Number(m[2]));
  return out;
}

describe('the wasm ABI, named on both sides', () => {
  const bindings = read('bindings/bindings.cpp');

  test('the Call layout js/src writes is the one bindings.cpp pins', () => {
    expect(Object.fromEntries(pinned(bindings, 'Call'))).toEqual({
      dtype: abi.CALL_DTYPE, n: abi.CALL_N, inputs: abi.CALL_INPUTS, shapes: abi.CALL_SHAPES, out: abi.CALL_OUT,
      out_shape: abi.CALL_OUT_SHAPE, op: abi.CALL_OP, sizeof: abi.CALL_BYTES,
    });
  });

  test('the Shape layout js/src writes is the one bindings.cpp pins', () => {
    expect(Object.fromEntries(pinned(bindings, 'Shape'))).toEqual({
      dims: abi.SHAPE_DIMS, rank: abi.SHAPE_RANK, sizeof: abi.SHAPE_BYTES,
    });
    // The pins hold only in wasm32, where the dims pointer takes 4 bytes and the dims 8.
    expect(bindings).toMatch(/#ifdef __wasm32__\s*\nstatic_assert\(offsetof\(onnx_ops::Call/);
    expect(abi.DIM_BYTES).toBe(8);
    // The word counts the writer steps by follow from the byte sizes (the Call padded to a dim's alignment).
    expect(abi.CALL_WORDS * 4).toBe(Math.ceil(abi.CALL_BYTES / abi.DIM_BYTES) * abi.DIM_BYTES);
    expect([abi.SHAPE_WORDS * 4, abi.DIM_WORDS * 4]).toEqual([abi.SHAPE_BYTES, abi.DIM_BYTES]);
    expect(read('src/plan/broadcast.h')).toMatch(/const int64_t\* dims;/);
  });

  test('the status codes js/src maps are src/status.h\'s', () => {
    expect(Object.fromEntries(enumerators(read('src/status.h')))).toEqual({
      Ok: abi.STATUS_OK, BadDtype: abi.STATUS_BAD_DTYPE, BadArity: abi.STATUS_BAD_ARITY, BadShape: abi.STATUS_BAD_SHAPE,
      Incompatible: abi.STATUS_INCOMPATIBLE, OutShapeMismatch: abi.STATUS_OUT_SHAPE_MISMATCH, TooLarge: abi.STATUS_TOO_LARGE,
      BadOp: abi.STATUS_BAD_OP,
    });
  });

  test('the op ids (each op\'s row in the spec table, in order) are src/ops.h\'s', () => {
    expect(Object.fromEntries(enumerators(read('src/ops.h'), 'OpId'))).toEqual(Object.fromEntries(OP_NAMES.map((op, i) => [op, i])));
  });

  test('the parsers see a changed layout or status (the checks can fail)', () => {
    const moved = bindings.replace('offsetof(onnx_ops::Call, out) == 16', 'offsetof(onnx_ops::Call, out) == 20');
    expect(pinned(moved, 'Call').get('out')).toBe(20);
    expect(enumerators('enum class Status : int32_t {\n  Ok = 0, // fine\n  BadDtype = 9,\n};').get('BadDtype')).toBe(9);
    expect(enumerators('enum class OpId : int32_t {\n  Max = 0,  // x (y, z)\n  Relu = 4,\n};', 'OpId').get('Relu')).toBe(4);
  });
});
