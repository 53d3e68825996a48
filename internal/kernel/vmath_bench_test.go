package kernel_test

import (
	"testing"

	"github.com/simdkit/elem/internal/kernel"
)

// BenchmarkMath times every unary math op on 16000 values (the issue's
// size: in L2, out of L1) under every implementation, on the arguments
// elembench -math uses: go test -bench Math/exp/float32 -count 6, then
// compare medians.
func BenchmarkMath(b *testing.B) {
	const n = 16000
	restore := kernel.Current()
	defer kernel.Use(restore, "bench")
	for _, f := range mathOps(b) {
		op := unaryOpNamed(b, f.name)
		b.Run(f.name, func(b *testing.B) {
			b.Run("float32", func(b *testing.B) { benchMath[float32](b, op, n) })
			b.Run("float64", func(b *testing.B) { benchMath[float64](b, op, n) })
		})
	}
}

func benchMath[T kernel.Float](b *testing.B, op kernel.UnaryOp, n int) {
	a, d := make([]T, n), make([]T, n)
	for i := range a {
		a[i] = T(benchArg(op.String(), i*7919))
	}
	for _, impl := range kernel.Available() {
		b.Run(impl.String(), func(b *testing.B) {
			kernel.Use(impl, "bench")
			timeUnary(b, op, d, a)
		})
	}
}

// timeUnary times op from a into d, in bytes moved and ns per element.
func timeUnary[T kernel.Float](b *testing.B, op kernel.UnaryOp, d, a []T) {
	n := len(a)
	b.SetBytes(int64(n * 2 * int(sizeOfT[T]())))
	for b.Loop() {
		kernel.Unary(kernel.V, op, 1, n, d, 0, a, 0, false)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
}

func sizeOfT[T kernel.Float]() uintptr {
	var z T
	switch any(z).(type) {
	case float32:
		return 4
	}
	return 8
}

// benchArg is argument i of op's benchmark: where the function is used
// (logarithms of positive values, sin and cos over (-100, 100), the rest
// over (-10, 10)), as elembench -math.
func benchArg(name string, i int) float64 {
	u := float64(i%4000) / 4000
	switch name {
	case "sin", "cos":
		return -100 + 200*u
	case "log1p":
		return -0.9 + 100*u
	case "log", "log2", "log10":
		return 1e-3 + 100*u
	}
	return -10 + 20*u
}

// BenchmarkMathRanges times the exponential-based functions and sin and
// cos (the default implementation) where their results leave the common
// path: around the underflow and overflow thresholds and at tiny
// arguments, where a result or a step would be subnormal, which costs
// Intel CPUs a microcode assist per instruction unless the program avoids
// it. Each range but tiny is a fraction of the type's exp overflow
// threshold (88.7 for float32, 709.8 for float64): 0.9-1.1 is near
// overflow, -1.1 to -0.9 near underflow, 0.23-1.1 the saturation of
// sigmoid and tanh; tiny is |x| under 1e-20 (float64: 1e-160), whose
// square is subnormal; far is x in (-1e7, -1e5), below exp's bounds.
// Compare a range with common in one run.
func BenchmarkMathRanges(b *testing.B) {
	const n = 16000
	ranges := []struct {
		name                   string
		lo32, hi32, lo64, hi64 float64
	}{
		{"common", -0.11 * 88.7, 0.11 * 88.7, -0.11 * 709.8, 0.11 * 709.8},
		{"saturated", 0.23 * 88.7, 1.1 * 88.7, 0.23 * 709.8, 1.1 * 709.8},
		{"overflow", 0.9 * 88.7, 1.1 * 88.7, 0.9 * 709.8, 1.1 * 709.8},
		{"underflow", -1.1 * 88.7, -0.9 * 88.7, -1.1 * 709.8, -0.9 * 709.8},
		{"tiny", -1e-20, 1e-20, -1e-160, 1e-160},
		{"far", -1e7, -1e5, -1e7, -1e5},
	}
	for _, name := range []string{"exp", "exp2", "expm1", "sigmoid", "tanh", "erf", "sin", "cos"} {
		op := unaryOpNamed(b, name)
		for _, r := range ranges {
			b.Run(name+"/"+r.name, func(b *testing.B) {
				b.Run("float32", func(b *testing.B) { benchMathRange[float32](b, op, n, r.lo32, r.hi32) })
				b.Run("float64", func(b *testing.B) { benchMathRange[float64](b, op, n, r.lo64, r.hi64) })
			})
		}
	}
}

func benchMathRange[T kernel.Float](b *testing.B, op kernel.UnaryOp, n int, lo, hi float64) {
	a, d := make([]T, n), make([]T, n)
	for i := range a {
		a[i] = T(lo + (hi-lo)*float64(i*7919%n)/float64(n))
	}
	timeUnary(b, op, d, a)
}
