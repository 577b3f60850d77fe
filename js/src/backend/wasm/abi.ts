/**
 * The wasm module's ABI, named: the call descriptor's layout, which is the
 * C++ `onnx_ops::Call` (src/ops.h) and `Shape` (src/plan/broadcast.h) as
 * wasm32 lays them out (bindings/bindings.cpp pins it with static_asserts),
 * and the entries' status codes (src/status.h's `Status`). tests/js/abi.test.ts checks them against
 * those files. descriptor.ts writes the layout; exports.ts calls the entry.
 */

/** `onnx_ops::Call`'s fields, at these byte offsets. */
export const CALL_DTYPE = 0; // int32_t: the dtype's ONNX number
export const CALL_N = 4; // int: how many inputs
export const CALL_INPUTS = 8; // const void* const*: the inputs' addresses
export const CALL_SHAPES = 12; // const Shape*: the inputs' shapes
export const CALL_OUT = 16; // void*: the output's address
export const CALL_OUT_SHAPE = 20; // Shape: the output's shape (its dims, then its rank)
export const CALL_OP = 28; // int32_t: the op's id, its row's place in core/spec.ts (src/ops.h's OpId), which run() reads; the per-op entries do not
export const CALL_BYTES = 32;
/** The Call in int32 words, padded to a dim's 8 bytes (what follows it in the descriptor is aligned). */
export const CALL_WORDS = 8;

/** `onnx_ops::Shape`'s fields, at these byte offsets. */
export const SHAPE_DIMS = 0; // const int64_t*: the dims
export const SHAPE_RANK = 4; // int
export const SHAPE_BYTES = 8;
export const SHAPE_WORDS = 2;

/** Bytes of one dim (int64_t, 8-byte aligned), and int32 words. */
export const DIM_BYTES = 8;
export const DIM_WORDS = 2;

/** The entries' results (src/status.h's `Status`). */
export const STATUS_OK = 0;
export const STATUS_BAD_DTYPE = 1; // not a dtype, or one the op has no kernel for
export const STATUS_BAD_ARITY = 2; // Max with no inputs, Relu with other than one
export const STATUS_BAD_SHAPE = 3; // negative dim, or rank above the limit
export const STATUS_INCOMPATIBLE = 4; // shapes do not broadcast
export const STATUS_OUT_SHAPE_MISMATCH = 5; // the output shape is not the broadcast of the inputs
export const STATUS_TOO_LARGE = 6; // element count does not fit in memory's address space
export const STATUS_BAD_OP = 7; // the op field is no op
