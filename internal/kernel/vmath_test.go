package kernel_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/mathref"
	"github.com/simdkit/elem/internal/testkit"
)

// The math ops (exp, log, ...) are not Go's math functions, so that
// TestReferenceIsGo leaves them to these tests: every implementation gives
// the generic kernels' bits (on every float32 in the long target, `make
// test-math`, on a strided sample of them and on random and adversarial
// float64 arguments here), and those are within 1 ulp of the exact value:
// for float32 against package math in float64 (its error is 2^-29 of a
// float32 ulp), for float64 against math/big.

// mathFunc is a math op's definition for the tests: its references (see
// internal/mathref) and its arguments.
type mathFunc struct {
	name string
	// args64 draws a float64 argument: random over the domain, or near the
	// places where algorithms fail (thresholds, reduction boundaries).
	args64 func(rng *rand.Rand) float64
	// edges are float64 arguments whose float32 and float64 roundings
	// are checked beside the sample.
	edges []float64
}

var mathFuncs = map[string]mathFunc{
	"exp": {name: "exp", args64: expArgs,
		edges: []float64{709.782712893384, 709.7827128933841, 709.7, 88.72283, 88.72284, -745.1332191019411, -745.1332191019412,
			-708.3964185322641, -87.33654, -103.97208, -103.972, -104, 1e-300, -1e-300, 0x1p-30, 0.34657359027997264}},
	"log": {name: "log", args64: logArgs,
		edges: []float64{5e-324, 1e-310, 0x1p-1022, 0x1p-126, 0x1p-149, 1 + 0x1p-52, 1 - 0x1p-53, 0.7071067811865476, 0.7071067811865475,
			1.4142135623730951, math.MaxFloat64, math.MaxFloat32, 2, 0.5, math.E}},
	"exp2": {name: "exp2", args64: func(rng *rand.Rand) float64 { return expArgs(rng) * math.Log2E },
		edges: []float64{1024, 1023.9999999999999, -1074, -1075, -1022, 128, -149, -150, -126, 0.5, -0.5, 1e-20}},
	"expm1": {name: "expm1", args64: func(rng *rand.Rand) float64 {
		if rng.IntN(2) == 0 {
			return (rng.Float64() - 0.5) * math.Ldexp(1, -rng.IntN(60))
		}
		return expArgs(rng)
	},
		edges: []float64{1e-30, 0x1p-60, 0.34657359027997264, -0.34657359027997264, 0.6931471805599453, -40, -100, 709.78, 88.7}},
	"log2": {name: "log2", args64: logArgs,
		edges: []float64{1, 2, 0.5, 1 + 0x1p-52, 1 - 0x1p-53, 5e-324, 0x1p-1022, math.MaxFloat64, 3, 0.7071067811865476}},
	"log10": {name: "log10", args64: logArgs,
		edges: []float64{1, 10, 100, 1e-300, 1e300, 0.1, 1 + 0x1p-52, 1 - 0x1p-53, 5e-324, math.MaxFloat64}},
	"log1p": {name: "log1p", args64: func(rng *rand.Rand) float64 {
		if rng.IntN(2) == 0 {
			return (rng.Float64() - 0.5) * math.Ldexp(1, -rng.IntN(60))
		}
		return logArgs(rng) - 1
	},
		edges: []float64{-1, -1 + 0x1p-53, -0.5, 1e-30, 0x1p-60, 0.41421356237309503, -0.2928932188134524, 1e300, math.MaxFloat64, 5e-324}},
	"sigmoid": {name: "sigmoid", args64: func(rng *rand.Rand) float64 {
		return (rng.Float64() - 0.5) * math.Ldexp(1, rng.IntN(12)-2)
	},
		edges: []float64{0, 1e-30, 20, 40, 100, 745, -745, -700, -88, -103, -104, 17, 37}},
	"tanh": {name: "tanh", args64: func(rng *rand.Rand) float64 {
		return (rng.Float64() - 0.5) * math.Ldexp(1, rng.IntN(30)-20)
	},
		edges: []float64{1e-30, 0x1p-13, 0.55, 0.5493061443340549, 9, 10, 19, 20, 22, 1e300, 5e-324}},
	"erf": {name: "erf", args64: func(rng *rand.Rand) float64 {
		if rng.IntN(4) == 0 {
			return (rng.Float64() - 0.5) * math.Ldexp(1, -rng.IntN(40))
		}
		return (rng.Float64() - 0.5) * 14
	},
		edges: []float64{0.84375, 1.25, 1 / 0.35, 6, 5e-324, 1e-300, 0x1p-28, 0.5, 1, 2, 3, 5.9, 27, 1e300}},
	"sin": {name: "sin", args64: trigArgs, edges: trigEdges},
	"cos": {name: "cos", args64: trigArgs, edges: trigEdges},
}

// trigArgs are sin's and cos's arguments: near multiples of pi/2 (where
// the reduction cancels), of every size up to the largest, and small.
func trigArgs(rng *rand.Rand) float64 {
	switch rng.IntN(4) {
	case 0:
		k := float64(rng.IntN(1 << 20))
		return k*math.Pi/2 + (rng.Float64()-0.5)*math.Ldexp(1, -rng.IntN(40))
	case 1:
		return math.Ldexp(rng.Float64()-0.5, rng.IntN(2100)-1074)
	case 2:
		return math.Float64frombits(rng.Uint64())
	}
	return (rng.Float64() - 0.5) * 20
}

// trigEdges are the thresholds of sin and cos, and the float64 nearest a
// multiple of pi/2 relative to its size (6381956970095103*2^797).
var trigEdges = []float64{6381956970095103 * 0x1p797, 1e22, 1e300, math.MaxFloat64, math.MaxFloat32, 0x1p-27, 0x1p-12,
	0x1.fffffffffffffp-28, 0x1.fffffep-13, math.Pi / 4, math.Pi / 2, math.Pi, 3 * math.Pi / 2, 1e6, 16777216, 710, 89, 105414350,
	0x1p1023, 0x1p127, 0x1p24, 0x1p53, 5e-324, 1e-310}

// mathStride is the step between the float32 bit patterns tested: every
// one (ELEM_MATH_STRIDE=1, make test-math) or a sample.
func mathStride() uint64 {
	if s, err := strconv.ParseUint(os.Getenv("ELEM_MATH_STRIDE"), 10, 64); err == nil && s > 0 {
		return s
	}
	if testing.Short() {
		return 65521
	}
	return 1021
}

// mathCount64 is the number of float64 arguments per function.
func mathCount64() int {
	if n, err := strconv.Atoi(os.Getenv("ELEM_MATH_F64")); err == nil && n > 0 {
		return n
	}
	if testing.Short() {
		return 2000
	}
	return 20000
}

func unaryOpNamed(t testing.TB, name string) kernel.UnaryOp {
	for op := range kernel.NumUnaryOps {
		if op.String() == name {
			return op
		}
	}
	t.Fatalf("no unary op %q", name)
	return 0
}

// mathOps lists the math ops of the unary family that have a mathFunc.
func mathOps(t testing.TB) []mathFunc {
	var fs []mathFunc
	for op := range kernel.NumUnaryOps {
		if f, ok := mathFuncs[op.String()]; ok {
			fs = append(fs, f)
		}
	}
	require.NotEmpty(t, fs)
	return fs
}

// runUnary computes op on a under implementation impl (Generic by the
// reference entry, which needs no switch and may run in parallel).
func runUnary[T kernel.Float](impl kernel.Impl, op kernel.UnaryOp, dst, a []T) {
	if impl == kernel.Generic {
		kernel.ReferenceUnary(kernel.V, op, 1, len(a), dst, 0, a, 0)
		return
	}
	kernel.Unary(kernel.V, op, 1, len(a), dst, 0, a, 0, false)
}

// otherImpls lists the implementations this machine runs besides Generic.
func otherImpls() []kernel.Impl {
	var is []kernel.Impl
	for _, i := range kernel.Available() {
		if i != kernel.Generic {
			is = append(is, i)
		}
	}
	return is
}

// sameBitsAs checks that every implementation gives want's bits on a.
func sameBitsAs[T kernel.Float](t *testing.T, name string, op kernel.UnaryOp, a, want []T) {
	restore := kernel.Current()
	defer kernel.Use(restore, "test")
	got := make([]T, len(a))
	for _, impl := range otherImpls() {
		kernel.Use(impl, "test")
		runUnary(impl, op, got, a)
		for i := range a {
			if testkit.RawBits(got[i]) != testkit.RawBits(want[i]) {
				t.Fatalf("%s %s(%v = %#x): %v (%#x), generic %v (%#x)", impl, name, a[i], testkit.RawBits(a[i]),
					got[i], testkit.RawBits(got[i]), want[i], testkit.RawBits(want[i]))
			}
		}
	}
}

// TestMathFloat32 checks every math op on float32: the generic kernels
// within 1 ulp of exact and every implementation bit for bit the same, on
// every mathStride-th bit pattern (all of them in make test-math), the
// special values and each function's edges.
func TestMathFloat32(t *testing.T) {
	stride := mathStride()
	for _, f := range mathOps(t) {
		t.Run(f.name, func(t *testing.T) {
			op := unaryOpNamed(t, f.name)
			var worst float64
			var worstX float32
			check := func(a []float32) {
				want := make([]float32, len(a))
				var mu sync.Mutex
				parallelChunks(len(a), func(lo, hi int) {
					runUnary(kernel.Generic, op, want[lo:hi], a[lo:hi])
					w, wx := 0.0, float32(0)
					for i := lo; i < hi; i++ {
						if a[i] != a[i] {
							continue // checkSpecialValues checks it (Go's s390x Log10(-NaN) is -Inf)
						}
						if e := mathref.ULP32(want[i], mathref.Funcs[f.name].Ref32(float64(a[i]))); e > w || e != e {
							w, wx = e, a[i]
						}
					}
					mu.Lock()
					if w > worst || w != w {
						worst, worstX = w, wx
					}
					mu.Unlock()
				})
				sameBitsAs(t, f.name, op, a, want)
			}
			var special []float32
			special = append(special, testkit.Specials[float32]()...)
			for _, e := range f.edges {
				x := float32(e)
				special = append(special, x, math.Nextafter32(x, float32(math.Inf(1))), math.Nextafter32(x, float32(math.Inf(-1))), -x)
			}
			check(special)
			checkSpecialValues(t, f, special, func(a []float32) []float32 {
				d := make([]float32, len(a))
				runUnary(kernel.Generic, op, d, a)
				return d
			})
			const chunk = 1 << 20
			a := make([]float32, 0, chunk)
			start := uint64(f.name[0]) % stride // patterns differ between functions
			for b := start; b < 1<<32; b += stride {
				a = append(a, math.Float32frombits(uint32(b)))
				if len(a) == chunk {
					check(a)
					a = a[:0]
				}
			}
			check(a)
			t.Logf("%s float32: max %.4f ulp at %v (%#x), stride %d, implementations %v", f.name, worst, worstX,
				math.Float32bits(worstX), stride, kernel.AvailableNames())
			require.LessOrEqual(t, worst, 1.0, "%s(%v)", f.name, worstX)
		})
	}
}

// TestMathFloat64 checks every math op on float64 arguments drawn by its
// args64 and its edges: within 1 ulp of the math/big value, and every
// implementation bit for bit the generic kernels.
func TestMathFloat64(t *testing.T) {
	n := mathCount64()
	for _, f := range mathOps(t) {
		t.Run(f.name, func(t *testing.T) {
			op := unaryOpNamed(t, f.name)
			rng := rand.New(rand.NewPCG(7, uint64(len(f.name))))
			a := append([]float64(nil), testkit.Specials[float64]()...)
			for _, e := range f.edges {
				a = append(a, e, math.Nextafter(e, math.Inf(1)), math.Nextafter(e, math.Inf(-1)), -e)
			}
			for len(a) < n {
				a = append(a, f.args64(rng))
			}
			want := make([]float64, len(a))
			runUnary(kernel.Generic, op, want, a)
			sameBitsAs(t, f.name, op, a, want)
			checkSpecialValues(t, f, a, func(a []float64) []float64 { return want })
			var mu sync.Mutex
			worst, worstX := 0.0, 0.0
			parallelChunks(len(a), func(lo, hi int) {
				w, wx := 0.0, 0.0
				for i := lo; i < hi; i++ {
					if a[i] != a[i] || math.IsInf(a[i], 0) {
						continue
					}
					if e := mathref.ULP64(want[i], mathref.Funcs[f.name].Ref64(a[i])); e > w || e != e {
						w, wx = e, a[i]
					}
				}
				mu.Lock()
				if w > worst || w != w {
					worst, worstX = w, wx
				}
				mu.Unlock()
			})
			t.Logf("%s float64: max %.4f ulp at %v (%#x) over %d arguments", f.name, worst, worstX, math.Float64bits(worstX), len(a))
			require.LessOrEqual(t, worst, 1.0, "%s(%v)", f.name, worstX)
		})
	}
}

// checkSpecialValues checks the results that Go's math documents exactly
// (infinities, zeros and their signs, NaN): Go's value, and for a NaN
// argument the argument quieted, sign and payload kept; a NaN made by a
// domain error is Go's math.NaN() in T.
func checkSpecialValues[T kernel.Float](t *testing.T, f mathFunc, a []T, run func([]T) []T) {
	got := run(a)
	quiet := uint64(1) << 51
	if testkit.Is32[T]() {
		quiet = 1 << 22
	}
	for i, x := range a {
		g, want := float64(got[i]), mathref.Funcs[f.name].Ref32(float64(x)) // Go's math, for the special cases only
		switch {
		case x != x:
			require.Equal(t, testkit.RawBits(x)|quiet, testkit.RawBits(got[i]), "%s(NaN %#x)", f.name, testkit.RawBits(x))
		case want != want:
			require.Equal(t, testkit.RawBits(T(math.NaN())), testkit.RawBits(got[i]), "%s(%v): the NaN of a domain error", f.name, x)
		case math.IsInf(float64(x), 0) || x == 0:
			require.True(t, g == want && math.Signbit(g) == math.Signbit(want), "%s(%v) = %v, want %v", f.name, x, g, want)
		}
	}
}

// parallelChunks runs f over [0, n) in pieces on every core.
func parallelChunks(n int, f func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	step := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += step {
		wg.Add(1)
		go func(lo int) {
			defer wg.Done()
			f(lo, min(lo+step, n))
		}(lo)
	}
	wg.Wait()
}

func expArgs(rng *rand.Rand) float64 {
	switch rng.IntN(6) {
	case 0:
		return -746 + 1456*rng.Float64()
	case 1: // the overflow and underflow thresholds, subnormal results
		return []float64{709.782712893384, -745.1332191019411, -708.3964185322641}[rng.IntN(3)] + (rng.Float64()-0.5)*1e-9
	case 2:
		return -745.2 + 37*rng.Float64()
	case 3: // near the reduction's boundaries, (k + 1/2) ln 2
		return (float64(rng.IntN(2048)-1075) + 0.5) * math.Ln2 * (1 + (rng.Float64()-0.5)*1e-15)
	case 4:
		return (rng.Float64() - 0.5) * math.Ldexp(1, -rng.IntN(60))
	}
	return (rng.Float64() - 0.5) * 40
}

func logArgs(rng *rand.Rand) float64 {
	switch rng.IntN(5) {
	case 0: // every exponent, subnormals included
		return math.Float64frombits(1 + rng.Uint64N(0x7fefffffffffffff))
	case 1:
		return 1 + (rng.Float64()-0.5)*math.Ldexp(1, -rng.IntN(50))
	case 2: // the reduction's boundary, sqrt(2)/2 times a power of 2
		return math.Ldexp(0.7071067811865476*(1+(rng.Float64()-0.5)*1e-14), rng.IntN(2000)-1000)
	case 3:
		return math.Float64frombits(1 + rng.Uint64N(1<<52-1))
	}
	return rng.Float64() * 100
}

// TestMathEveryOpTested keeps the math ops and the tests' table in step.
func TestMathEveryOpTested(t *testing.T) {
	for name := range mathFuncs {
		found := false
		for op := range kernel.NumUnaryOps {
			found = found || op.String() == name
		}
		require.True(t, found, fmt.Sprintf("mathFuncs has %s, which is no op", name))
	}
}
