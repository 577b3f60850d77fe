// Minimal hand-written protobuf writer that builds an ONNX ModelProto holding a
// single Max or Relu node. No protobuf library: just varints and
// length-delimited fields, following onnx/onnx.proto field numbers.

import { broadcastShapes } from './common.mjs';
import { ONNX_DTYPE } from './oracle.mjs';

const utf8 = new TextEncoder();

function varint(n) {
  // n: non-negative Number or BigInt (int64 fields here are never negative).
  let v = BigInt(n);
  if (v < 0n) v = BigInt.asUintN(64, v);
  const out = [];
  while (v >= 0x80n) { out.push(Number(v & 0x7fn) | 0x80); v >>= 7n; }
  out.push(Number(v));
  return out;
}

// A message is an array of byte arrays (chunks); concat() flattens it.
const concat = (chunks) => {
  const len = chunks.reduce((s, c) => s + c.length, 0);
  const out = new Uint8Array(len);
  let o = 0;
  for (const c of chunks) { out.set(c, o); o += c.length; }
  return out;
};
const tag = (field, wire) => varint((field << 3) | wire);
const fInt = (field, n) => [...tag(field, 0), ...varint(n)];
const fBytes = (field, bytes) => concat([tag(field, 2), varint(bytes.length), bytes]);
const fStr = (field, s) => fBytes(field, utf8.encode(s));
const fMsg = (field, chunks) => fBytes(field, concat(chunks));

function valueInfo(name, elemType, shape) {
  // Dimension { int64 dim_value = 1 }; TensorShapeProto { repeated Dimension dim = 1 }
  // Rank 0: an empty (but present) shape message, so the rank is known.
  const dims = shape.map((d) => fMsg(1, [fInt(1, d)]));
  const tensorType = [fInt(1, elemType), fMsg(2, dims)]; // TypeProto.Tensor {elem_type=1, shape=2}
  const typeProto = [fMsg(1, tensorType)];               // TypeProto {tensor_type=1}
  return [fStr(1, name), fMsg(2, typeProto)];             // ValueInfoProto {name=1, type=2}
}


/**
 * Build the bytes of an ONNX model with one node.
 * @param {object} o
 * @param {'Max'|'Relu'} o.op
 * @param {string|number} o.dtype  our dtype name or an ONNX elem type number
 * @param {number[][]} o.shapes    input shapes (Relu: exactly one)
 * @param {number} [o.opset]       default 13 for Max, 14 for Relu
 * @param {number} [o.irVersion]   default 8
 * @returns {Uint8Array}
 */
export function buildModel({ op, dtype, shapes, opset, irVersion = 8 }) {
  const elemType = typeof dtype === 'number' ? dtype : ONNX_DTYPE[dtype];
  if (!elemType) throw new Error(`unknown dtype ${dtype}`);
  if (op !== 'Max' && op !== 'Relu') throw new Error(`unsupported op ${op}`);
  if (op === 'Relu' && shapes.length !== 1) throw new Error('Relu takes one input');
  if (shapes.length < 1) throw new Error('need at least one input');
  opset ??= op === 'Max' ? 13 : 14;
  const inNames = shapes.map((_, i) => `x${i}`);
  const outShape = broadcastShapes(shapes);

  // NodeProto {input=1, output=2, name=3, op_type=4}
  const node = [...inNames.map((n) => fStr(1, n)), fStr(2, 'y'), fStr(3, `${op}_0`), fStr(4, op)];
  // GraphProto {node=1, name=2, input=11, output=12}
  const graph = [
    fMsg(1, node),
    fStr(2, `${op.toLowerCase()}_graph`),
    ...inNames.map((n, i) => fMsg(11, valueInfo(n, elemType, shapes[i]))),
    fMsg(12, valueInfo('y', elemType, outShape)),
  ];
  // ModelProto {ir_version=1, producer_name=2, producer_version=3, graph=7, opset_import=8}
  // OperatorSetIdProto {domain=1, version=2}; default domain "" is omitted.
  const model = [
    fInt(1, irVersion),
    fStr(2, 'onnx-ops-wasm-bench'),
    fStr(3, '0'),
    fMsg(7, graph),
    fMsg(8, [fInt(2, opset)]),
  ];
  return concat(model.map((c) => (c instanceof Uint8Array ? c : Uint8Array.from(c))));
}
