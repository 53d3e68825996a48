package elem

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/testkit"
)

// The references below are the definitions of the package documentation,
// written out as plainly as possible, with no code shared with the
// library's.

// lanes is the number of accumulators.
const lanes = 32

// refSum is the canonical sum of terms: term i into accumulator i mod
// lanes, each accumulator from -0, then the pairwise tree (j with j + h
// for h = lanes/2, ..., 1); a NaN result is the first NaN of the inputs
// (ins, lowest index first, then input order), made quiet, or the positive
// quiet NaN with no payload; no terms give +0.
func refSum[T Float](terms []T, ins ...[]T) T {
	if len(terms) == 0 {
		return 0
	}
	acc := make([]T, lanes)
	for j := range acc {
		acc[j] = T(math.Copysign(0, -1))
	}
	for i, x := range terms {
		acc[i%len(acc)] += x
	}
	for h := len(acc) / 2; h >= 1; h /= 2 {
		for j := 0; j < h; j++ {
			acc[j] += acc[j+h]
		}
	}
	if s := acc[0]; s == s {
		return s
	}
	for i := range terms {
		for _, in := range ins {
			if x := in[i]; x != x {
				return quietRef(x)
			}
		}
	}
	if testkit.Is32[T]() {
		return testkit.FromBits[T](0x7fc00000)
	}
	return testkit.FromBits[T](0x7ff8000000000000)
}

// quietRef sets the quiet bit of a NaN (the bit below the exponent).
func quietRef[T Float](x T) T {
	if testkit.Is32[T]() {
		return testkit.FromBits[T](testkit.Bits(x) | 1<<22)
	}
	return testkit.FromBits[T](testkit.Bits(x) | 1<<51)
}

// refArg returns the index of the first NaN, else of the first element
// that no other element is below (less: -0 below +0).
func refArg[T Float](a []T, less func(x, y T) bool) int {
	best := 0
	for i, x := range a {
		if x != x {
			return i
		}
		if less(x, a[best]) {
			best = i
		}
	}
	return best
}

// below orders values as Go's min does: -0 below +0.
func below[T Float](x, y T) bool {
	return x < y || x == 0 && y == 0 && math.Signbit(float64(x)) && !math.Signbit(float64(y))
}

func above[T Float](x, y T) bool { return below(y, x) }

func TestReductions(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testReductions[float32])
		t.Run("float64", testReductions[float64])
	})
}

// eachReduceInput calls f on inputs a and b of every length up to 300 and
// a few long ones (up to 20 and two long ones under -race, see
// testkit.Sweep), at every start offset modulo 16, from each of the pools
// that makePools gives.
func eachReduceInput[T Number](rng *rand.Rand, makePools func(*rand.Rand, int) []testkit.Pool[T], f func(a, b []T, what string)) {
	lengths := []int{}
	for n := range testkit.Sweep(301, 301, 21) {
		lengths = append(lengths, n)
	}
	if testkit.Race {
		lengths = append(lengths, 1000, 70000)
	} else {
		lengths = append(lengths, 1000, 4099, 70000)
	}
	for _, pool := range makePools(rng, 2*70000+32) {
		for _, n := range lengths {
			off := n % 16
			from := rng.IntN(len(pool.Data) - 2*n + 1)
			a := atOffset(pool.Data[from:from+n], off)
			b := atOffset(pool.Data[from+n:from+2*n], (off+3)%16)
			f(a, b, fmt.Sprintf("%T %s n=%d", T(0), pool.Name, n))
		}
	}
}

func testReductions[T Float](t *testing.T) {
	eachReduceInput(rand.New(rand.NewPCG(11, 12)), testkit.Pools[T], func(a, b []T, what string) {
		n := len(a)
		prods, squares := make([]T, n), make([]T, n)
		for i := range a {
			prods[i], squares[i] = T(a[i]*b[i]), T(a[i]*a[i])
		}
		requireBits(t, refSum(a, a), Sum(a), "Sum "+what)
		requireBits(t, refSum(prods, a, b), Dot(a, b), "Dot "+what)
		requireBits(t, refSum(squares, a), SumSq(a), "SumSq "+what)
		if n == 0 {
			return
		}
		lo, hi := refArg(a, below[T]), refArg(a, above[T])
		require.Equal(t, lo, ArgMin(a), "ArgMin "+what)
		require.Equal(t, hi, ArgMax(a), "ArgMax "+what)
		requireBits(t, a[lo], MinOf(a), "MinOf "+what)
		requireBits(t, a[hi], MaxOf(a), "MaxOf "+what)
	})
}

func TestIntReductions(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("int8", testIntReductions[int8])
		t.Run("int16", testIntReductions[int16])
		t.Run("int32", testIntReductions[int32])
		t.Run("int64", testIntReductions[int64])
		t.Run("uint8", testIntReductions[uint8])
		t.Run("uint16", testIntReductions[uint16])
		t.Run("uint32", testIntReductions[uint32])
		t.Run("uint64", testIntReductions[uint64])
		t.Run("named", testIntReductions[pixel])
	})
}

// pixel is a named integer type: the calls take it as they take uint8.
type pixel uint8

// testIntReductions compares every reduction on integers with the plain
// loop a user would write, on every length up to 300 and a few long ones,
// at every start offset modulo 16, on each of testkit.IntPools.
func testIntReductions[T Integer](t *testing.T) {
	eachReduceInput(rand.New(rand.NewPCG(15, 16)), testkit.IntPools[T], func(a, b []T, what string) {
		var sum, dot, sq T
		for i := range a {
			sum += a[i]
			dot += a[i] * b[i]
			sq += a[i] * a[i]
		}
		require.Equal(t, sum, Sum(a), "Sum "+what)
		require.Equal(t, dot, Dot(a, b), "Dot "+what)
		require.Equal(t, sq, SumSq(a), "SumSq "+what)
		if len(a) == 0 {
			return
		}
		lo, hi := 0, 0
		for i, x := range a {
			if x < a[lo] {
				lo = i
			}
			if x > a[hi] {
				hi = i
			}
		}
		require.Equal(t, lo, ArgMin(a), "ArgMin "+what)
		require.Equal(t, hi, ArgMax(a), "ArgMax "+what)
		require.Equal(t, a[lo], MinOf(a), "MinOf "+what)
		require.Equal(t, a[hi], MaxOf(a), "MaxOf "+what)
	})
}

// TestIntReductionEdges pins wrap-around and the extremes.
func TestIntReductionEdges(t *testing.T) {
	require.Equal(t, int8(-128), Sum([]int8{127, 1}), "127 + 1 wraps")
	require.Equal(t, uint8(0), Sum([]uint8{255, 1}), "255 + 1 wraps")
	require.Equal(t, int32(0), Sum[int32](nil))
	require.Equal(t, int16(-32768), Dot([]int16{256, 1}, []int16{128, 0}), "256*128 wraps to the least int16")
	require.Equal(t, uint64(1), SumSq([]uint64{1 << 32, 1}), "(2^32)^2 wraps to 0")
	require.Equal(t, int64(math.MinInt64), MinOf([]int64{0, math.MinInt64, -1, math.MaxInt64}))
	require.Equal(t, uint32(math.MaxUint32), MaxOf([]uint32{0, math.MaxUint32, 1 << 31}))
	require.Equal(t, 1, ArgMin([]int8{0, -128, -128, 127}), "first index of the least")
	require.Equal(t, 2, ArgMax([]uint16{0, 1, 65535, 65535}), "first index of the greatest")
	testkit.RequirePanicContains(t, "elem: ArgMax of an empty slice", func() { ArgMax([]int32{}) })
	testkit.RequirePanicContains(t, "elem: Dot: slice lengths differ: len(a) = 1, len(b) = 0", func() {
		Dot([]uint8{1}, nil)
	})
}

func atOffset[T Number](data []T, off int) []T {
	buf := make([]T, len(data)+off)
	copy(buf[off:], data)
	return buf[off:]
}

func requireBits[T Float](t *testing.T, want, got T, what string) {
	t.Helper()
	require.Equal(t, testkit.Bits(want), testkit.Bits(got), "%s: want %v, got %v", what, want, got)
}

// TestReductionEdges pins the documented edge cases.
func TestReductionEdges(t *testing.T) {
	negZero := math.Copysign(0, -1)
	nan1, nan2 := math.Float64frombits(0x7ff8000000000011), math.Float64frombits(0xfff4000000000022) // quiet, signalling
	tests := []struct {
		name string
		got  float64
		want uint64
	}{
		{"Sum of nothing", Sum[float64](nil), 0},
		{"Sum of -0s", Sum([]float64{negZero, negZero}), 1 << 63},
		{"Sum of -0 and +0", Sum([]float64{negZero, 0}), 0},
		{"Sum: first NaN, quieted", Sum([]float64{1, nan2, nan1}), 0xfffc000000000022},
		{"Sum: Inf - Inf", Sum([]float64{math.Inf(1), math.Inf(-1)}), 0x7ff8000000000000},
		{"Dot: 0 * Inf", Dot([]float64{0}, []float64{math.Inf(1)}), 0x7ff8000000000000},
		{"Dot: a's NaN before b's at one index", Dot([]float64{2, nan1}, []float64{3, nan2}), 0x7ff8000000000011},
		{"Dot: b's NaN at a lower index", Dot([]float64{2, nan1}, []float64{nan2, 3}), 0xfffc000000000022},
		{"MinOf: -0 below +0", MinOf([]float64{0, negZero}), 1 << 63},
		{"MaxOf: +0 above -0", MaxOf([]float64{negZero, 0}), 0},
		{"MaxOf: first NaN, unchanged", MaxOf([]float64{1, nan2, nan1}), 0xfff4000000000022},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, math.Float64bits(tt.got), tt.name)
	}
	require.Equal(t, 1, ArgMin([]float64{0, negZero, negZero}), "first index of the least")
	require.Equal(t, 0, ArgMax([]float64{0, negZero, 0}), "first index of the greatest")
	require.Equal(t, 2, ArgMax([]float64{1, 3, nan1, nan2}), "first NaN")
	for name, f := range map[string]func(){
		"MinOf": func() { MinOf[float32](nil) }, "MaxOf": func() { MaxOf([]float32{}) },
		"ArgMin": func() { ArgMin[float64](nil) }, "ArgMax": func() { ArgMax([]float64{}) },
	} {
		testkit.RequirePanicContains(t, "elem: "+name+" of an empty slice", f)
	}
	testkit.RequirePanicContains(t, "elem: Dot: slice lengths differ: len(a) = 2, len(b) = 3", func() {
		Dot(make([]float32, 2), make([]float32, 3))
	})
}

// TestSumAccuracy compares the canonical sum's error with the plain loop's
// against the exact sum (math/big) on random data: the canonical sum must
// be no worse on average, over many slices of each length (the longest,
// whose exact sums take a minute under -race, left out there).
func TestSumAccuracy(t *testing.T) {
	t.Run("float32", testSumAccuracy[float32])
	t.Run("float64", testSumAccuracy[float64])
}

func testSumAccuracy[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{100, 1000, 16000, 262144}[:testkit.Sweep(4, 3, 3)] {
		canon, naive := sumErrors[T](rng, n, 20)
		t.Logf("%T n=%d: mean relative error: canonical %.3g, plain loop %.3g", T(0), n, canon, naive)
		require.LessOrEqual(t, canon, naive, "n=%d", n)
	}
}

// sumErrors returns the mean relative error of Sum and of the plain loop
// over trials slices of n values uniform in [0, 1) (every partial sum
// grows, so rounding errors pile up in the loop) and in [-1, 1).
func sumErrors[T Float](rng *rand.Rand, n, trials int) (canon, naive float64) {
	a := make([]T, n)
	for trial := range trials {
		shift := float64(trial % 2)
		exact := new(big.Float).SetPrec(2048)
		for i := range a {
			a[i] = T(rng.Float64()*(1+shift) - shift)
			exact.Add(exact, new(big.Float).SetFloat64(float64(a[i])))
		}
		var loop T
		for _, x := range a {
			loop += x
		}
		e, _ := exact.Float64()
		canon += math.Abs(float64(Sum(a))-e) / math.Abs(e)
		naive += math.Abs(float64(loop)-e) / math.Abs(e)
	}
	return canon / float64(trials), naive / float64(trials)
}

// TestReductionsDoNotAllocate: the accumulators live on the caller's
// stack.
func TestReductionsDoNotAllocate(t *testing.T) {
	testkit.SkipAllocsUnderRace(t)
	a, b := make([]float32, 1000), make([]float32, 1000)
	ia, ib := make([]int16, 1000), make([]int16, 1000)
	allocs := testing.AllocsPerRun(10, func() {
		_, _, _ = Sum(a), Dot(a, b), SumSq(a)
		_, _, _, _ = MinOf(a), MaxOf(a), ArgMin(a), ArgMax(a)
		_, _, _ = Sum(ia), Dot(ia, ib), SumSq(ia)
		_, _, _, _ = MinOf(ia), MaxOf(ia), ArgMin(ia), ArgMax(ia)
	})
	require.Zero(t, allocs)
}

// TestShortExtremes runs MinOf, MaxOf, ArgMin and ArgMax on every slice of
// up to four values drawn from the zeros of both signs, ±1, -Inf and two
// NaNs: the short slices' own loop has to give Go's min and max exactly,
// signed zeros and the first NaN included.
func TestShortExtremes(t *testing.T) {
	nan1, nan2 := math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff8000000000002)
	values := []float64{math.Copysign(0, -1), 0, -1, 1, math.Inf(-1), math.Inf(1), 5e-324, nan1, nan2}
	var each func(a []float64)
	each = func(a []float64) {
		if len(a) > 0 {
			lo, hi := refArg(a, below[float64]), refArg(a, above[float64])
			what := fmt.Sprint(a)
			require.Equal(t, lo, ArgMin(a), "ArgMin %s", what)
			require.Equal(t, hi, ArgMax(a), "ArgMax %s", what)
			requireBits(t, a[lo], MinOf(a), "MinOf "+what)
			requireBits(t, a[hi], MaxOf(a), "MaxOf "+what)
		}
		if len(a) == 4 {
			return
		}
		for _, v := range values {
			each(append(a, v))
		}
	}
	each(nil)
}

// TestSumSignOfZero checks the sign of zero sums, which the accumulators'
// start decides: -0 when every term is -0 (an element, or a product that
// rounds to -0), +0 as soon as one is not, at every length and position.
func TestSumSignOfZero(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testSumSignOfZero[float32](t, 1e-30) })
	t.Run("float64", func(t *testing.T) { testSumSignOfZero[float64](t, 1e-200) })
}

// testSumSignOfZero runs the check on T, tiny*tiny rounding to 0 in T.
func testSumSignOfZero[T Float](t *testing.T, tiny T) {
	negZero := T(math.Copysign(0, -1))
	for _, n := range []int{1, 2, 8, 9, 16, 17, 32, 33, 100} {
		for _, plus := range []int{-1, 0, n / 2, n - 1} { // the index of a +0, or none
			a, neg, pos := make([]T, n), make([]T, n), make([]T, n)
			for i := range a {
				a[i], neg[i], pos[i] = negZero, -tiny, tiny // -tiny * tiny rounds to -0
			}
			if plus >= 0 {
				a[plus], neg[plus] = 0, tiny
			}
			what := fmt.Sprintf("%T n=%d, +0 at %d", T(0), n, plus)
			requireBits(t, refSum(a, a), Sum(a), "Sum "+what)
			prods := make([]T, n)
			for i := range prods {
				prods[i] = T(neg[i] * pos[i])
			}
			requireBits(t, refSum(prods, neg, pos), Dot(neg, pos), "Dot "+what)
			requireBits(t, refSum(make([]T, n), a), SumSq(a), "SumSq "+what)
		}
	}
}

// TestIntExtremes checks MinOf and MaxOf on integer types against Go's min
// and max folded over the slice, through the short loop and the kernels.
func TestIntExtremes(t *testing.T) {
	t.Run("int8", func(t *testing.T) { testIntExtremes[int8](t) })
	t.Run("uint64", func(t *testing.T) { testIntExtremes[uint64](t) })
}

func testIntExtremes[T Integer](t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for n := 1; n <= 70; n++ {
		a := testkit.RandomInts[T](rng, n)
		lo, hi := a[0], a[0]
		for _, x := range a {
			lo, hi = min(lo, x), max(hi, x)
		}
		require.Equal(t, lo, MinOf(a), "MinOf %v", a)
		require.Equal(t, hi, MaxOf(a), "MaxOf %v", a)
	}
}
