#!/usr/bin/env python3
"""Writes the hand-made seed corpus (tests/fuzz/corpus/{ops,shapes}) and the
regression inputs (tests/fuzz/regressions/{ops,shapes}); see the byte layouts
at the top of fuzz_ops.cpp and fuzz_shapes.cpp. Run from anywhere:
    python3 tests/fuzz/make_seeds.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# fuzz_ops: dtype byte = index into kDtypes (or 0xF0 | i: a bad dtype)
F32, U8, I8, U16, I16, I32, I64, F16, F64, U32, U64, BF16 = range(12)
DERIVED, INPLACE, SPECIALS, PERTURB, WILD = 8, 16, 32, 64, 128


def ops_seed(dtype, n, flags, sel, shape_bytes, data=b""):
    return bytes([dtype, (n - 1) | flags, sel]) + bytes(shape_bytes) + data


DATA = bytes(range(0, 256, 7)) + bytes([0xFF, 0x80, 0x7F, 0x00, 0xC3, 0x01])

OPS = {
    # [2,3] vs [3], specials
    "f32_row_bcast": ops_seed(F32, 2, SPECIALS, 0, [2, 2, 3, 1, 3], DATA),
    # derived out [2, 4097]: float16 tile of 4096 lanes crossed, 3 inputs
    "f16_tile_3in": ops_seed(F16, 3, DERIVED | SPECIALS, 0, [2, 2, 0xE8, 0, 0, 1, 1, 0, 2], DATA),
    # bfloat16 [5, 7], relu path, NaN payloads
    "bf16_relu": ops_seed(BF16, 1, SPECIALS, 0, [2, 5, 7], DATA),
    # int8 [8193], 5 inputs, in place (int8 tile is 8192)
    "i8_tile_inplace": ops_seed(I8, 5, DERIVED | INPLACE, 1, [1, 0xEB, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0], DATA),
    # uint64 [3,1] x [1,4] (outer product broadcast)
    "u64_outer": ops_seed(U64, 2, 0, 0, [2, 3, 9, 2, 9, 4], DATA),
    # int64: scalar inputs (rank 0) against a [6]
    "i64_scalars": ops_seed(I64, 4, SPECIALS, 0, [0, 1, 6, 0, 0], DATA),
    # float64, 6 inputs, rank 6 derived, in place + a wrong out shape
    "f64_rank6_6in": ops_seed(F64, 6, DERIVED | INPLACE | PERTURB | SPECIALS, 2,
                              [6, 2, 1, 3, 2, 1, 2] + [0, 0, 1, 5, 2, 0, 3, 0x22, 0, 0, 6, 1], DATA),
    # uint8 with an empty dim
    "u8_empty": ops_seed(U8, 2, 0, 0, [2, 0, 3, 1, 3]),
    # int16 / uint16 / int32 / uint32, middle-dim broadcasts
    "i16_mid": ops_seed(I16, 2, 0, 0, [3, 2, 1, 5, 3, 2, 4, 5], DATA),
    "u16_33": ops_seed(U16, 3, DERIVED, 0, [2, 0xED, 0xEF, 0, 1, 1, 2, 0, 0], DATA),
    "i32_1025": ops_seed(I32, 2, DERIVED | PERTURB, 3, [2, 3, 0xE2, 0, 1, 1, 0], DATA),
    "u32_specials": ops_seed(U32, 2, SPECIALS, 0, [1, 8, 1, 8], DATA),
    # incompatible [2] vs [3]; a bad dtype; wild rank 65; huge non-empty dims (TooLarge)
    "incompatible": ops_seed(F32, 2, 0, 0, [1, 2, 1, 3]),
    "bad_dtype": bytes([0xF3, 0x01, 0x00, 1, 2, 1, 2]),
    "wild_rank65": ops_seed(F32, 1, WILD, 0, [0xF9]),
    "wild_too_large": ops_seed(I8, 2, WILD, 0, [2, 0xF0, 4, 0xF0, 6, 1, 1]),
}

# fuzz_shapes: [n][flags: 1 perturb, 2 null dims, 4 walk, 8 derived, sel << 4] then rank/dims
PERT, NULLD, WALK, DER = 1, 2, 4, 8
SHAPES = {
    "bcast_walk": bytes([2, WALK | PERT, 2, 2, 3, 1, 3]),
    "derived_walk": bytes([3, WALK | DER | (5 << 4), 4, 2, 3, 1, 4, 0, 5, 1, 2, 2, 0]),
    "rank65": bytes([1, 0, 0xC1]),
    "int64_max": bytes([2, 0, 1, 0x83, 1, 1]),
    "no_inputs": bytes([0, 0]),
    "many_inputs": bytes([0xF4, WALK]) + bytes([1, 3] * 4),
    "null_dims": bytes([2, NULLD, 2, 2, 3, 1, 3]),
    "negative": bytes([2, PERT, 2, 2, 0x80, 1, 3]),
    "too_large": bytes([2, 0, 2, 0x84, 1, 2, 1, 0x84]),
    "raw_dim": bytes([1, 0, 1, 0xFF]) + struct.pack("<q", -(2**62)),
}

# Inputs that crashed at some point: replayed by run.sh before fuzzing.
REGRESSIONS_SHAPES = {
    # [0, 2^40, 2^40]: empty output; plan_broadcast's stride products overflow int64 (UB).
    "empty_huge_dims_overflow": bytes([1, 0, 3, 0x00, 0x8F, 0x8F]),
}
REGRESSIONS_OPS = {
    # Same, through onnx_ops::max with wild dims: input [0, 2^40, 2^40], float32.
    "empty_huge_dims_overflow": ops_seed(F32, 1, WILD, 0, [3, 0x00, 0xF0, 15, 0xF0, 15]),
}


def write(subdir, files):
    d = os.path.join(HERE, subdir)
    os.makedirs(d, exist_ok=True)
    for name, data in files.items():
        assert len(data) < 1024, name
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


write("corpus/ops", OPS)
write("corpus/shapes", SHAPES)
write("regressions/ops", REGRESSIONS_OPS)
write("regressions/shapes", REGRESSIONS_SHAPES)
print(f"{len(OPS) + len(SHAPES)} seeds, {len(REGRESSIONS_OPS) + len(REGRESSIONS_SHAPES)} regressions")
