// Package elem provides SIMD elementwise kernels for float32 and float64:
// Add, Sub, Mul, Div, Min and Max over slices, with a scalar on either side,
// and a two-dimensional strided form on which the broadcast package builds.
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
// max(-0, +0) = +0. Division by zero gives IEEE infinities and NaNs.
//
// # Contract
//
// Slice lengths must match, or the call panics naming them, as slice
// indexing does. dst may be exactly a or b (in place); any other overlap
// between dst and an input panics before anything is written.
//
// # Implementations
//
// The implementation is chosen once at start-up from the CPU: "avx2" (or
// "avx512" where asked for) on amd64, "neon" on arm64, and the portable
// "generic" Go kernels everywhere else and under the purego build tag. The
// environment variable ELEM_IMPL (generic, avx2, avx512, neon) or
// SetImplementation forces one; Implementation names the one in use.
//
// # Big arrays
//
// ParallelApply, ParallelApplyScalar, ParallelScalarApply and ParallelApply2D
// split one call across goroutines, for arrays so big that one core cannot
// keep the memory system busy. They are opt-in: no other call in this package
// starts a goroutine. Package bigbuf allocates such arrays 64-byte aligned
// and, on Linux, on transparent huge pages.
package elem

//go:generate go run ./gen -out kernel_amd64.s -stubs kernel_amd64.go -pkg elem
