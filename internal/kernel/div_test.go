package kernel_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// TestMathDivScalar checks the division of a vector by one value per row
// (DivScalar's kernels, the reciprocal path on AVX-512: see the generator's
// x86Divide) against Go's division, bit for bit: the dividends' whole
// mantissa range (every one under make test-math, a stride of them here)
// at several exponents, over divisors with the mantissas that make the
// reciprocal's error largest, and random and threshold pairs over the
// whole range, rows of different divisors in one call.
func TestMathDivScalar(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testkit.EachSIMDImplementation(t, divScalarCheck[float32]) })
	t.Run("float64", func(t *testing.T) { testkit.EachSIMDImplementation(t, divScalarCheck[float64]) })
}

// divisors are the divisors of the sweep: mantissas next to 1, sqrt 2 and 2
// (from sqrt 2 on, the generator's bound does not prove one correction
// step), random ones, at exponents from
// the ends of the reciprocal path's range and beyond, both signs, and the
// special values.
func divisors[T float32 | float64](rng *rand.Rand) []T {
	mant := []float64{1, math.Nextafter(1, 2), 1.5, math.Sqrt2, math.Nextafter(2, 1)}
	if testkit.Is32[T]() {
		mant = append(mant, float64(math.Nextafter32(1, 2)), float64(math.Nextafter32(2, 1)), float64(float32(math.Sqrt2)))
	}
	for range 8 {
		mant = append(mant, 1+rng.Float64())
	}
	exps := []int{0, 1, -1, 10, -37, 62, 63, 64, -62, -63, -64, 126, -126, 510, 511, 512, -510, -511, -512, -1022, 1023}
	var ds []T
	for i, m := range mant {
		e := exps[i%len(exps)]
		ds = append(ds, T(math.Ldexp(m, e)), -T(m))
		if i < len(exps) {
			ds = append(ds, T(math.Ldexp(m, exps[(i+7)%len(exps)])))
		}
	}
	for _, e := range exps {
		ds = append(ds, T(math.Ldexp(1, e)), T(math.Ldexp(math.Nextafter(2, 1), e)))
	}
	return append(ds, testkit.Specials[T]()...)
}

func divScalarCheck[T float32 | float64](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	mantBits := 52
	if testkit.Is32[T]() {
		mantBits = 23
	}
	ds := divisors[T](rng)
	// Each row: dividends in [1, 2) by the stride (random ones for
	// float64), scaled to one exponent; then random patterns and values at
	// the range's ends.
	var rows [][]T
	stride := mathStride()
	count := uint64(1) << mantBits / stride
	if !testkit.Is32[T]() {
		count = uint64(testkit.Sweep(1<<20, 1<<10, 1<<8))
		if stride > 1 {
			count /= 64
		}
	}
	one := testkit.Bits[T](1)
	for _, e := range []int{0, 1, -3, 100, -100, -120, 120, 900, -900, -1000} {
		row := make([]T, 0, count)
		for i := range count {
			m := i * stride
			if !testkit.Is32[T]() {
				m = rng.Uint64() >> (64 - mantBits)
			}
			row = append(row, T(math.Ldexp(float64(testkit.FromBits[T](one|m)), e)))
		}
		rows = append(rows, row)
	}
	random := make([]T, 4096)
	for i := range random {
		random[i] = testkit.FromBits[T](rng.Uint64() >> (64 - 8*int(sizeOfT[T]())))
	}
	rows = append(rows, random, testkit.RandomData[T](rng, 4096))
	var edges []T
	for _, e := range []int{-149, -126, -125, -124, -102, -101, -100, -99, -60, 60, 125, 126, 127, -1074, -1022, -1021, -970, -967, -966, 1022, 1023} {
		for _, m := range []float64{1, 1.5, math.Nextafter(2, 1)} {
			v := T(math.Ldexp(m, e))
			edges = append(edges, v, -v, v*(1+T(math.Ldexp(1, -10))))
		}
	}
	rows = append(rows, append(edges, testkit.Specials[T]()...))
	for len(rows) > 0 {
		row := rows[0]
		if len(row) > 1<<14 { // in pieces: every divisor's copy is made at once
			row, rows[0] = row[:1<<14], row[1<<14:]
		} else {
			rows = rows[1:]
		}
		n := len(row)
		a := make([]T, len(ds)*n)
		for r := range ds {
			copy(a[r*n:], row)
		}
		got, want := make([]T, len(a)), make([]T, len(a))
		kernel.Div(kernel.VS, len(ds), n, got, n, a, n, ds, 1, false)
		for r, s := range ds {
			for i, x := range row {
				want[r*n+i] = x / s
			}
		}
		for i := range got {
			if g, w := testkit.Bits(got[i]), testkit.Bits(want[i]); g != w {
				t.Fatalf("%v / %v: got %v (%#x), want %v (%#x)", a[i], ds[i/n], got[i], g, want[i], w)
			}
		}
	}
}
