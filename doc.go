// Package elem provides SIMD elementwise kernels over slices of float32,
// float64 and the 8- to 64-bit integers:
//
//   - binary ops Add, Sub, Mul, Min, Max (and Div, floats only), with a
//     scalar on either side, and on integers And, Or, Xor, AndNot, Shl, Shr;
//   - unary ops Neg and Abs (integers: two's complement, as Go's -x), and
//     on floats Sqrt, Floor, Ceil, Trunc, RoundToEven, Round;
//   - on floats FMA with one rounding (FMA, MulScalarAdd, MulAddScalar);
//     Clamp, Select (NumPy's where) and comparisons into []bool (Eq ... Ge)
//     on every type;
//   - Convert between any two element types;
//   - reductions on floats and integers (Sum, Dot, SumSq, MinOf, MaxOf, ArgMin, ArgMax)
//     with one summation order, the same bits on every CPU;
//   - scans (CumSum, CumProd, the plain loop's bits), norms (Norm1, Norm2
//     without overflow, NormInf, Distance) and masks (Count, Any, All).
//
// Each op has an op-valued form (Apply, ApplyUnary, Compare, ApplyTernary,
// ApplyBitwise, ApplyShift). The arithmetic, unary, ternary, comparison and
// selection ops also have a two-dimensional strided form (Apply2D,
// ApplyUnary2D, Compare2D, ApplyTernary2D, Select2D), on which the broadcast
// package builds, and the calls on Matrix (AddRow, ApplyRow, ApplyCol,
// ApplyScalar2D, ApplyOuter, ApplyMatrix) name the operand that broadcasts.
//
// # Semantics
//
// Every implementation gives exactly the bits of the plain Go loop
//
//	for i := range dst { dst[i] = a[i] + b[i] }
//
// on the same architecture, NaN payloads included: no FMA contraction, no
// reciprocal approximation, no flush to zero, no reassociation. When both
// operands are NaN the result carries the first operand's payload, as the
// hardware does, so a scalar on the left (ScalarSub, ScalarDiv and the
// broadcast forms that put one) stays the first operand. Min and Max are Go's
// builtin min and max: NaN if either operand is NaN, min(-0, +0) = -0 and
// max(-0, +0) = +0. Division by zero gives IEEE infinities and NaNs. The
// unary ops are package math's functions; FMA rounds once (float32 FMA is
// the correctly rounded float32 result); comparisons are Go's operators.
// Integers wrap around, and shifts by a count at or beyond the width give 0
// (or -1), as Go's. There is no integer division: Go panics on a zero
// divisor, which a kernel cannot do per element. Convert is Go's
// conversion, and defines what Go leaves to the implementation: a float
// that does not fit an integer type is truncated and saturated, NaN gives 0.
//
// Add, Sub, Mul, Div, Sum and Dot take complex64 and complex128 slices too,
// with bits defined for every CPU (products rounded and never fused, Go's
// division algorithm, the canonical order over the parts): see Complex,
// and Magnitude, Phase, MulConj, DotConj and the other complex calls.
//
// # Reductions
//
// Sum, Dot and SumSq add in one canonical order, which every implementation,
// the generic Go kernels included, follows exactly, so that a sum has the
// same bits on every CPU (AVX2, AVX-512, NEON or none) and a golden value
// stays golden. The order is the definition:
//
//  1. There are 32 accumulators, acc[0] to acc[31], for float32 and
//     float64 alike (whole registers everywhere: two or four AVX-512, four
//     or eight AVX2, eight or sixteen NEON registers), each starting at -0,
//     the additive identity that keeps every value's bits. Term i (a[i];
//     for Dot a[i]*b[i] and for SumSq a[i]*a[i], each product rounded to T,
//     never fused into a multiply-add) is added to acc[i mod 32], so each
//     accumulator is a left-to-right sum of every 32nd term, computed in T:
//     float32 accumulates in float32.
//  2. A fixed pairwise tree combines them: while more than one is left,
//     acc[j] becomes acc[j] + acc[j+h] for j < h, h being half the count
//     (j + 16, then j + 8, j + 4, j + 2 and j + 1).
//  3. The result is the last accumulator standing. The sum of no terms is
//     +0. A NaN result is replaced by the first NaN of the inputs (the
//     lowest index; at one index, a's before b's) with its quiet bit set,
//     or, when no input is a NaN (Inf - Inf, 0 * Inf), by the positive
//     quiet NaN with no payload (0x7fc00000, 0x7ff8000000000000): CPUs
//     differ in which NaN an addition returns, and this makes NaN sums
//     agree too.
//
// Besides being the same everywhere, the order is more accurate than the
// plain left-to-right loop: each accumulator adds n/32 terms, and the tree
// adds five more roundings, instead of n roundings in one chain (measured
// against an exact math/big sum of random data, the mean relative error of
// float32 sums of 16000 values in [0, 1) and [-1, 1) is 3.2e-7 against the
// loop's 1.7e-6; of 262144 values, 3.8e-6 against 1.2e-5).
//
// MinOf and MaxOf are Go's builtin min and max over the slice: -0 is below
// +0, and if any element is a NaN the result is the first NaN, bits
// unchanged. ArgMin and ArgMax return the index of that result: the first
// index of the least (greatest) value, or of the first NaN. These four
// panic on an empty slice; Sum, Dot and SumSq of nothing are +0, and Dot
// panics when the lengths differ.
//
// On the integer types Sum, Dot and SumSq wrap around in T as Go's + and *
// do, and give exactly the bits of the plain loop (s += a[i], s +=
// a[i]*b[i], s += a[i]*a[i]): wrap-around addition is associative, so the
// canonical order, or any other, cannot change them. MinOf and MaxOf are
// the least and greatest value, ArgMin and ArgMax its first index.
//
// broadcast.ReduceSum sums over axes with the same order for each output
// element, and so do its siblings (ReduceProd, ReduceMax, ReduceMin,
// ReduceMean, ReduceVar, ReduceStd, ReduceArgMax, ReduceArgMin,
// ReduceCount), the softmax family (Softmax, LogSoftmax, LogSumExp) and
// the scans along an axis (CumSum, CumProd).
//
// # Contract
//
// Slice lengths must match, or the call panics naming them, as slice
// indexing does. dst may be exactly an input of its own type (in place);
// any other overlap between dst and an input panics before anything is
// written. A call over a huge slice runs as pieces, so that the goroutine
// can be preempted between them.
//
// # Implementations
//
// The implementations are "avx2" and "avx512" on amd64, "neon" on arm64,
// and the portable "generic" Go kernels everywhere (the only one under the
// purego build tag). By default each call picks one by its op and size from
// a rule for this CPU, keyed by vendor, family and model and scaled by the
// cache sizes read at start-up (CacheSizes); the same rule sets the size
// from which calls write with streaming stores. Dispatch describes what is
// in effect. The environment variable ELEM_IMPL (generic, avx2, avx512,
// neon) or SetImplementation forces one implementation for every call, and
// ELEM_STREAM_MIN=bytes sets the streaming threshold.
//
// # Big arrays
//
// ParallelApply, ParallelApplyScalar, ParallelScalarApply and ParallelApply2D
// split one call across goroutines, for arrays so big that one core cannot
// keep the memory system busy. They are opt-in: no other call in this package
// starts a goroutine. Package bigbuf allocates such arrays 64-byte aligned
// and, on Linux, on transparent huge pages.
package elem

//go:generate go run -C gen . -root ..
