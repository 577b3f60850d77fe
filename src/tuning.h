// Every tuning constant of the library, each with the reason for its value.
// None of them changes a result; each was chosen by measurement
// (docs/PERFORMANCE.md, "Figures behind the code", has the figures).
#pragma once

#include <cstddef>

namespace onnx_ops {

// ---- the checked Max of the float dtypes (kernels/vbinary_checked.h) -------
// One NaN/-0 test per chunk: big chunks keep the test and the loop exit rare.
constexpr size_t kCheckedChunkBytes = 4096;
// After a redo, 256 B chunks, so that NaNs a few KiB apart do not put one in
// nearly every chunk (each such chunk is computed twice)...
constexpr size_t kCheckedTinyChunkBytes = 256;
// ...then 1 KiB chunks until 64 KiB passed, so that NaNs tens of KiB apart do
// not cost a 4 KiB redo each.
constexpr size_t kCheckedSmallChunkBytes = 1024;
constexpr size_t kCheckedCalmBytes = 65536;
// The chunk is computed as tiny << 2 * (steps passed), the smallest code.
static_assert(kCheckedSmallChunkBytes == 4 * kCheckedTinyChunkBytes &&
                  kCheckedChunkBytes == 4 * kCheckedSmallChunkBytes,
              "CheckedBinary::run's chunk formula");

// ---- folding many inputs (ops/elementwise.cpp) ---------------------------------
// Inputs beyond three are folded tile by tile in an accumulator this big, so
// that memory is read once per input and written once.
constexpr size_t kFoldTileBytes = 8192;

// ---- short rows, run as groups (ops/elementwise.cpp, ops/gather.cpp) -----------
// Rows up to a quarter of this run G at a time as one run (a call and an
// odometer step per short row cost more than the row); gathered inputs get a
// tile this big each.
constexpr size_t kGroupBytes = 4096;
// Up to this many inputs go grouped (a tile each on the stack); more go row by row.
constexpr int kGroupInputs = 8;
// Inputs gathered per group only for rows up to an eighth of kGroupBytes:
// longer rows ran faster with a call per row than through the gather's copy.
constexpr size_t kGatherRowBytes = kGroupBytes / 8;

// ---- pmax against a clean operand (ops/elementwise.cpp, kernels/vbinary_rows.h)
// A clean value per row pays for a splat per row from rows of this size
// (shorter ones, but for 17-32 bytes, run faster grouped).
constexpr size_t kPmaxRowBytes = 64;

}  // namespace onnx_ops
