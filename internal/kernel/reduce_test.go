package kernel_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// reduction describes one reduction to the tests (see
// reductions_generated_test.go): its entry and generic kernel on one
// signature (a fold returns 0, a find ignores acc).
type reduction[T kernel.Number] struct {
	name     string
	inputs   int
	fold     string // "sum", "min", "max", "findbits", "findnan", "argmax", "argmin", "greatest", "least"
	shifted  bool   // the fold's terms read v (sqdev)
	run, ref func(acc []T, in [][]T, v T) int
}

// start returns a fold's state before its first element, or, when random
// is set, accumulators holding values already, as after earlier pieces.
func (r reduction[T]) start(rng *rand.Rand, random bool) []T {
	st := new([kernel.Lanes]T)
	var acc []T
	switch r.fold {
	case "min":
		acc = kernel.MinStart(st)
	case "max":
		acc = kernel.MaxStart(st)
	default:
		acc = kernel.SumStart(st)
	}
	if random {
		for i := range acc {
			if isFloat[T]() {
				acc[i] = T(rng.NormFloat64())
			} else {
				acc[i] = T(rng.Uint64())
			}
		}
	}
	return acc
}

// result combines a fold's accumulators into its result.
func (r reduction[T]) result(acc []T) T {
	switch r.fold {
	case "min":
		return kernel.Least(acc)
	case "max":
		return kernel.Greatest(acc)
	}
	return kernel.SumTree(acc)
}

// isFloat reports whether T has fractions.
func isFloat[T kernel.Number]() bool { return T(1)/2 != 0 }

// reduceLengths covers every round and register boundary up to 300, runs
// of a few rounds, and a run past one preemption piece (chunkBytes); under
// -race (see testkit.Sweep), up to 20, one run of a few rounds and one past
// a piece.
func reduceLengths[T kernel.Number]() []int {
	var ls []int
	for n := 0; n <= testkit.Sweep(300, 300, 20); n++ {
		ls = append(ls, n)
	}
	chunk := (256 << 10) / int(unsafe.Sizeof(T(0)))
	if testkit.Race {
		return append(ls, 1025, chunk+37)
	}
	return append(ls, 1023, 1024, 1025, 4099, chunk-1, chunk, chunk+37, 2*chunk+5)
}

// atOffset copies data into a fresh buffer at element offset off, so that
// the kernels see every alignment.
func atOffset[T kernel.Number](data []T, off int) []T {
	buf := make([]T, len(data)+off)
	copy(buf[off:], data)
	return buf[off:]
}

func TestReductionsMatchGeneric(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testReductionsMatchGeneric(testkit.Pools[float32]))
		t.Run("float64", testReductionsMatchGeneric(testkit.Pools[float64]))
		t.Run("int8", testReductionsMatchGeneric(testkit.IntPools[int8]))
		t.Run("int16", testReductionsMatchGeneric(testkit.IntPools[int16]))
		t.Run("int32", testReductionsMatchGeneric(testkit.IntPools[int32]))
		t.Run("int64", testReductionsMatchGeneric(testkit.IntPools[int64]))
		t.Run("uint8", testReductionsMatchGeneric(testkit.IntPools[uint8]))
		t.Run("uint16", testReductionsMatchGeneric(testkit.IntPools[uint16]))
		t.Run("uint32", testReductionsMatchGeneric(testkit.IntPools[uint32]))
		t.Run("uint64", testReductionsMatchGeneric(testkit.IntPools[uint64]))
	})
}

// testReductionsMatchGeneric compares every reduction's implementation in
// use with its generic kernel on the pools of data that makePools gives.
func testReductionsMatchGeneric[T kernel.Number](makePools func(*rand.Rand, int) []testkit.Pool[T]) func(t *testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		lengths := reduceLengths[T]()
		pools := makePools(rng, 2*lengths[len(lengths)-1]+64)
		for _, r := range reductions[T]() {
			for pi, pool := range pools {
				for li, n := range lengths {
					if n > 300 && pi%2 != li%2 {
						continue // the long runs take half the pools each
					}
					off := (7*n + pi) % testOffsets()
					from := rng.IntN(len(pool.Data) - 2*n + 1)
					in := [][]T{atOffset(pool.Data[from:from+n], off)}
					if r.inputs == 2 {
						in = append(in, atOffset(pool.Data[from+n:from+2*n], (off+5)%16))
					}
					checkReduction(t, r, in, rng, fmt.Sprintf("%s %T %s n=%d off=%d", r.name, T(0), pool.Name, n, off))
				}
			}
		}
	}
}

// requireSameOrNaN compares accumulators bit for bit, except that a NaN
// matches any NaN: which payload an accumulator carries depends on how the
// compiler ordered the generic kernel's operands, and the callers replace a
// NaN result by a canonical NaN.
func requireSameOrNaN[T kernel.Number](t *testing.T, want, got []T, what string) {
	t.Helper()
	for i := range want {
		if want[i] != want[i] && got[i] != got[i] {
			want[i], got[i] = 0, 0
		}
	}
	testkit.RequireSameBits(t, want, got, what)
}

// checkReduction runs r on in with the implementation in use and with the
// generic kernel and compares them bit for bit: every accumulator of a
// float fold (an integer fold's result), from the start state and from
// random ones; for FindBits the index of an element at a random place, of
// the last, and of a value that is not there; for FindNaN the index of the
// first NaN.
func checkReduction[T kernel.Number](t *testing.T, r reduction[T], in [][]T, rng *rand.Rand, what string) {
	t.Helper()
	n := len(in[0])
	switch r.fold {
	case "findbits":
		pi := math.Pi
		vs := []T{T(pi)}
		if n > 0 {
			vs = append(vs, in[0][rng.IntN(n)], in[0][n-1])
		}
		for _, v := range vs {
			require.Equal(t, r.ref(nil, in, v), r.run(nil, in, v), "%s v=%v", what, v)
		}
	case "findnan", "argmax", "argmin", "greatest", "least":
		require.Equal(t, r.ref(nil, in, 0), r.run(nil, in, 0), what)
	default:
		var v T // a shifted fold's shift: an element (differences of 0 among them), or a value not there
		if r.shifted {
			v = T(1) / 3
			if n > 0 && rng.IntN(2) == 0 {
				v = in[0][rng.IntN(n)]
			}
		}
		for _, random := range []bool{false, true} {
			want, got := r.start(rng, random), r.start(rng, random)
			copy(got, want)
			r.ref(want, in, v)
			r.run(got, in, v)
			if !isFloat[T]() { // the order does not matter: only the fold of the accumulators
				require.Equal(t, r.result(want), r.result(got), "%s random start %v", what, random)
				continue
			}
			requireSameOrNaN(t, want, got, fmt.Sprintf("%s random start %v v=%v", what, random, v))
		}
	}
}

// TestFindNaNEveryPosition puts one NaN at every position of every length
// up to 200, where a search meets it in a block, a single register or the
// scalar loop.
func TestFindNaNEveryPosition(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testFindEveryPosition[float32])
		t.Run("float64", testFindEveryPosition[float64])
	})
}

func testFindEveryPosition[T kernel.Float](t *testing.T) {
	nan := testkit.FromBits[T](testkit.SignBit[T]() | testkit.Bits(T(math.NaN())) | 5)
	for n := 1; n <= 200; n++ {
		a := make([]T, n)
		for i := range a {
			a[i] = T(i) + 0.5
		}
		for p := range n {
			a[p] = nan
			require.Equal(t, p, kernel.FindNaN(a), "NaN at %d of %d", p, n)
			require.Equal(t, p, kernel.FindBits(a, nan), "NaN's bits at %d of %d", p, n)
			a[p] = T(p) + 0.5
			require.Equal(t, p, kernel.FindBits(a, T(p)+0.5), "%d at %d of %d", p, p, n)
		}
		require.Equal(t, n, kernel.FindNaN(a))
		require.Equal(t, n, kernel.FindBits(a, T(math.Copysign(0, -1))), "-0 is not +0 nor any value here")
	}
}

// TestArgEveryPosition puts the extreme at every position of every length
// up to 200, 70 under -short and -race (the blocks of four registers,
// single registers and the masked tail of both widths), alone, tied with a later copy, as a zero tied with
// the other zero, and beside a NaN; ArgMax and ArgMin must give the first
// index by the ordered comparison, or -1 for the NaN.
func TestArgEveryPosition(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testArgEveryPosition[float32])
		t.Run("float64", testArgEveryPosition[float64])
	})
}

func testArgEveryPosition[T kernel.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	nan, inf := T(math.NaN()), T(math.Inf(1))
	for n := 1; n <= testkit.Sweep(200, 70, 70); n++ {
		a := make([]T, n)
		for i := range a {
			a[i] = T(rng.NormFloat64())
		}
		for p := range n {
			for _, extreme := range []T{1e30, inf} {
				for _, max := range []bool{true, false} {
					arg, v := kernel.ArgMax[T], extreme
					if !max {
						arg, v = kernel.ArgMin[T], -extreme
					}
					bits := kernel.GreatestBits[T]
					if !max {
						bits = kernel.LeastBits[T]
					}
					old := a[p]
					a[p] = v
					require.Equal(t, p, arg(a), "max %v: %v at %d of %d", max, v, p, n)
					require.Equal(t, testkit.Bits(v), uint64(bits(a)), "max %v: bits of %v at %d of %d", max, v, p, n)
					if q := p + 1 + rng.IntN(n-p); q < n {
						oq := a[q]
						a[q] = v
						require.Equal(t, p, arg(a), "max %v: %v at %d and %d of %d", max, v, p, q, n)
						a[q] = nan
						require.Equal(t, -1, arg(a), "max %v: NaN at %d of %d", max, q, n)
						require.Equal(t, -1, bits(a), "max %v: bits with a NaN at %d of %d", max, q, n)
						a[q] = oq
					}
					a[p] = old
				}
			}
		}
		// Zeros and infinities only: the first of the tied zeros, whatever
		// its sign; the first -Inf of a max when all are -Inf.
		z := make([]T, n)
		for i := range z {
			z[i] = T(math.Copysign(0, float64(rng.IntN(2)*2-1)))
		}
		first := rng.IntN(n)
		for i := range first {
			z[i] = T(math.Inf(-1))
		}
		require.Equal(t, first, kernel.ArgMax(z), "zeros after %d -Inf of %d", first, n)
		require.Equal(t, 0, kernel.ArgMin(z), "zeros after %d -Inf of %d", first, n)
		// The value searches give +0 for zeros of either sign.
		require.Equal(t, 0, kernel.GreatestBits(z), "zeros after %d -Inf of %d", first, n)
		if first == 0 {
			require.Equal(t, 0, kernel.LeastBits(z), "zeros, %d", n)
		}
		for i := range z {
			z[i] = T(math.Inf(-1))
		}
		require.Equal(t, 0, kernel.ArgMax(z), "all -Inf, %d", n)
		require.Equal(t, testkit.Bits(T(math.Inf(-1))), uint64(kernel.GreatestBits(z)), "all -Inf, %d", n)
	}
}

// TestFindBitsIntEveryPosition puts one value among zeros at every position
// of every length up to 200, for every integer width.
func TestFindBitsIntEveryPosition(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("int8", testFindIntEveryPosition[int8])
		t.Run("uint16", testFindIntEveryPosition[uint16])
		t.Run("int32", testFindIntEveryPosition[int32])
		t.Run("uint64", testFindIntEveryPosition[uint64])
	})
}

func testFindIntEveryPosition[T kernel.Integer](t *testing.T) {
	v := testkit.IntSpecials[T]()[6] // the sign bit alone
	for n := 1; n <= 200; n++ {
		a := make([]T, n)
		for p := range n {
			a[p] = v
			require.Equal(t, p, kernel.FindBits(a, v), "%v at %d of %d", v, p, n)
			a[p] = 0
		}
		require.Equal(t, 0, kernel.FindBits(a, 0))
		require.Equal(t, n, kernel.FindBits(a, v))
	}
}

// TestSumTree pins the tree: the pairs are (j, j+h) for h = 16, 8, 4, 2, 1.
func TestSumTree(t *testing.T) {
	acc := make([]float64, kernel.Lanes)
	// Lane 0 huge, lane 16 its negation, everything else 1: the tree pairs
	// 0 with 16 at the first level, so the ones survive (a left-to-right
	// sum would absorb them into 2^60 and lose them).
	for i := range acc {
		acc[i] = 1
	}
	acc[0], acc[16] = 1<<60, -(1 << 60)
	require.Equal(t, 30.0, kernel.SumTree(acc))
}
