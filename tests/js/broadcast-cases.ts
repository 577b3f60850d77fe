// Random broadcasts for the property tests: an output shape and, per input,
// which leading dims it drops and which dims it sets to 1.
import fc from 'fast-check';

/** A dim: often 1 or 0-4 (broadcasts and empty tensors), else up to `maxDim`. */
export const dimOf = (maxDim: number) => fc.oneof(fc.constant(1), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: maxDim }));

/** The fields of a random broadcast: dims up to `maxDim`, 1 to `maxInputs` inputs. */
export const broadcastFields = (maxDim: number, maxInputs: number) => ({
  out: fc.array(dimOf(maxDim), { minLength: 0, maxLength: 5 }),
  inputs: fc.array(fc.record({ drop: fc.nat(5), ones: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }) }),
    { minLength: 1, maxLength: maxInputs }),
});

/** Each input's shape: the output's, less its dropped leading dims, with its chosen dims set to 1. */
export const shapesOf = (c: { out: number[]; inputs: { drop: number; ones: boolean[] }[] }): number[][] =>
  c.inputs.map(({ drop, ones }) => c.out.slice(Math.min(drop, c.out.length)).map((d, k) => (ones[k] ? 1 : d)));
