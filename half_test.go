package elem_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

func TestHalfValues(t *testing.T) {
	for _, c := range []struct {
		x    float64
		f16  elem.Float16
		bf16 elem.BFloat16
	}{
		{1, 0x3c00, 0x3f80},
		{-2, 0xc000, 0xc000},
		{65504, 0x7bff, 0x4780},
		{65519.99, 0x7bff, 0x4780},
		{65520, 0x7c00, 0x4780},                 // float16: the tie above the largest rounds to Inf
		{0x1p-24, 0x0001, 0x3380},               // the least float16 subnormal
		{0x1p-25, 0x0000, 0x3300},               // half of it: a tie, to even 0
		{0x1.8p-25, 0x0001, 0x3340},             // above the tie
		{1.0009765625, 0x3c01, 0x3f80},          // 1 + 2^-10
		{1 + 0x1p-11, 0x3c00, 0x3f80},           // a tie, to even
		{1 + 0x1p-11 + 0x1p-40, 0x3c01, 0x3f80}, // a hair above the tie, seen only from float64
		{3.0e38, 0x7c00, 0x7f62},
		{math.Inf(-1), 0xfc00, 0xff80},
		{math.Copysign(0, -1), 0x8000, 0x8000},
		{0x1p-133, 0x0000, 0x0001}, // the least bfloat16 subnormal, kept
	} {
		require.Equal(t, c.f16, elem.Float16FromFloat64(c.x), "float16(%v)", c.x)
		require.Equal(t, c.bf16, elem.BFloat16FromFloat64(c.x), "bfloat16(%v)", c.x)
		if float64(float32(c.x)) == c.x {
			require.Equal(t, c.f16, elem.Float16FromFloat32(float32(c.x)), "float16(float32 %v)", c.x)
			require.Equal(t, c.bf16, elem.BFloat16FromFloat32(float32(c.x)), "bfloat16(float32 %v)", c.x)
		}
	}
	require.Equal(t, float32(65504), elem.Float16(0x7bff).Float32())
	require.Equal(t, float32(0x1p-24), elem.Float16(1).Float32())
	require.Equal(t, uint32(0x7fc00000|1<<13), math.Float32bits(elem.Float16(0x7c01).Float32())) // a signaling NaN quieted, payload kept
	require.Equal(t, uint32(0x7f810000), math.Float32bits(elem.BFloat16(0x7f81).Float32()))      // bfloat16 bits as they are
	require.Equal(t, elem.Float16(0x7e00|0x1ff), elem.Float16FromFloat32(math.Float32frombits(0x7fbfffff)))
	require.Equal(t, elem.BFloat16(0xffff), elem.BFloat16FromFloat32(math.Float32frombits(0xffbfffff)))
	require.Equal(t, "0.3333", elem.Float16FromFloat64(1.0/3).String())
	require.Equal(t, "0.334", elem.BFloat16FromFloat64(1.0/3).String()) // 0.333984375
	require.Equal(t, "65500", elem.Float16(0x7bff).String())            // 65504, NumPy's way
	require.Equal(t, "-Inf", elem.Float16(0xfc00).String())
}

// TestConvertHalf converts every element type to and from Float16 and
// BFloat16 under every implementation: into a half format each value
// rounds once from its exact value (float64 and wide integers directly,
// never through float32), out of one the half value converts as a float32
// holding it would.
func TestConvertHalf(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(71, 72))
		for _, n := range []int{0, 1, 15, 16, 17, 33, 1000, 1025, 3000} {
			t.Run(fmt.Sprint(n), func(t *testing.T) {
				checkHalfFloats(t, testkit.Pools[float32](rng, n))
				checkHalfFloats(t, testkit.Pools[float64](rng, n))
				checkHalfInts(t, testkit.IntPools[int8](rng, n))
				checkHalfInts(t, testkit.IntPools[uint16](rng, n))
				checkHalfInts(t, testkit.IntPools[int32](rng, n))
				checkHalfInts(t, testkit.IntPools[uint32](rng, n))
				checkHalfInts(t, testkit.IntPools[int64](rng, n))
				checkHalfInts(t, testkit.IntPools[uint64](rng, n))
			})
		}
	})
}

func checkHalfFloats[S elem.Float](t *testing.T, pools []testkit.Pool[S]) {
	for _, p := range pools {
		checkHalf(t, p.Name, p.Data, func(x S) (uint16, uint16) {
			if float64(float32(x)) == float64(x) || x != x && isFloat32[S]() {
				return kernel.Float16From32(float32(x)), kernel.BFloat16From32(float32(x))
			}
			return kernel.Float16From64(float64(x)), kernel.BFloat16From64(float64(x))
		})
	}
}

func isFloat32[T elem.Number]() bool { var z T; _, ok := any(z).(float32); return ok }

func checkHalfInts[S elem.Integer](t *testing.T, pools []testkit.Pool[S]) {
	for _, p := range pools {
		checkHalf(t, p.Name, p.Data, func(x S) (uint16, uint16) {
			var zero S
			if zero-1 < zero {
				return kernel.HalfFromInt(int64(x), false), kernel.HalfFromInt(int64(x), true)
			}
			return kernel.HalfFromUint(uint64(x), false), kernel.HalfFromUint(uint64(x), true)
		})
	}
}

// checkHalf converts src to both formats and back against want, which
// gives each value's float16 and bfloat16 bits.
func checkHalf[S elem.Number](t *testing.T, name string, src []S, want func(S) (uint16, uint16)) {
	f16, bf16 := make([]elem.Float16, len(src)), make([]elem.BFloat16, len(src))
	elem.Convert(f16, src)
	elem.Convert(bf16, src)
	for i, x := range src {
		w16, wb16 := want(x)
		require.Equal(t, elem.Float16(w16), f16[i], "%s: float16(%v)", name, x)
		require.Equal(t, elem.BFloat16(wb16), bf16[i], "%s: bfloat16(%v)", name, x)
	}
	back, through := make([]S, len(src)), make([]float32, len(src))
	for _, h := range []any{f16, bf16} {
		switch h := h.(type) {
		case []elem.Float16:
			elem.Convert(back, h)
			for i := range h {
				through[i] = h[i].Float32()
			}
		case []elem.BFloat16:
			elem.Convert(back, h)
			for i := range h {
				through[i] = h[i].Float32()
			}
		}
		wantBack := make([]S, len(src))
		elem.Convert(wantBack, through)
		require.Equal(t, bitsOf(wantBack), bitsOf(back), "%s: back from %T", name, h)
	}
	// Between the half formats: through the float32 value, rounded once.
	across := make([]elem.BFloat16, len(src))
	elem.Convert(across, f16)
	for i, h := range f16 {
		require.Equal(t, elem.BFloat16FromFloat32(h.Float32()), across[i], "%s: bfloat16(float16 %#04x)", name, uint16(h))
	}
}

// bitsOf returns the bits of the values of x, so that NaNs compare.
func bitsOf[T elem.Number](x []T) []uint64 {
	out := make([]uint64, len(x))
	for i, v := range x {
		switch v := any(v).(type) {
		case float32:
			out[i] = uint64(math.Float32bits(v))
		case float64:
			out[i] = math.Float64bits(v)
		default:
			out[i] = uint64(int64(v2i(v)))
		}
	}
	return out
}

func v2i(v any) int64 {
	switch v := v.(type) {
	case int8:
		return int64(v)
	case uint16:
		return int64(v)
	case int32:
		return int64(v)
	case uint32:
		return int64(v)
	case int64:
		return v
	case uint64:
		return int64(v)
	}
	panic(fmt.Sprintf("%T", v))
}

// TestHalfReductions checks that the half calls give the bits of Sum,
// Dot, Norm2 and MulScalar over the values converted to float32, under
// every implementation, specials included, over one piece and several.
func TestHalfReductions(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(73, 74))
		for _, n := range []int{0, 1, 16, 17, 100, 1024, 1025, 2048, 3000} {
			// The second operand finite (most sums of specials are NaNs,
			// which say little about the lanes), then with specials too.
			finite := make([]float32, n)
			for i := range finite {
				finite[i] = float32(rng.NormFloat64())
			}
			for _, p := range testkit.Pools[float32](rng, n) {
				for _, other := range [][]float32{finite, testkit.Pools[float32](rng, n)[0].Data} {
					checkHalfReductions(t, fmt.Sprintf("%s/%d", p.Name, n), p.Data, other, elem.Float16FromFloat32)
					checkHalfReductions(t, fmt.Sprintf("%s/%d", p.Name, n), p.Data, other, elem.BFloat16FromFloat32)
				}
			}
			checkHalfReductions(t, fmt.Sprintf("finite/%d", n), finite, finite, elem.Float16FromFloat32)
			checkHalfReductions(t, fmt.Sprintf("finite/%d", n), finite, finite, elem.BFloat16FromFloat32)
		}
		// Every finite float16 times another in shuffled order, then with
		// the infinities and NaNs too: the fused kernels round an exact
		// product once, over every magnitude and subnormal.
		var finiteHalves, all []elem.Float16
		for i := range 1 << 16 {
			h := elem.Float16(i)
			if i&0x7c00 != 0x7c00 {
				finiteHalves = append(finiteHalves, h)
			}
			all = append(all, h)
		}
		for _, a := range [][]elem.Float16{finiteHalves, all} {
			b := slices.Clone(a)
			rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
			wa, wb := make([]float32, len(a)), make([]float32, len(a))
			elem.Convert(wa, a)
			elem.Convert(wb, b)
			require.Equal(t, math.Float32bits(elem.Dot(wa, wb)), math.Float32bits(elem.DotHalf(a, b)), "every float16, %d values", len(a))
		}
		// Every term -0, and one +0 among them, past one piece.
		neg := make([]float32, 2000)
		for i := range neg {
			neg[i] = float32(math.Copysign(0, -1))
		}
		checkHalfReductions(t, "-0", neg, neg, elem.Float16FromFloat32)
		neg[1500] = 0
		checkHalfReductions(t, "-0 +0", neg, neg, elem.Float16FromFloat32)
	})
}

func checkHalfReductions[H elem.Half](t *testing.T, name string, x, y []float32, from func(float32) H) {
	a, b := make([]H, len(x)), make([]H, len(x))
	for i := range x {
		a[i], b[i] = from(x[i]), from(y[i])
	}
	wa, wb := make([]float32, len(x)), make([]float32, len(x))
	elem.Convert(wa, a)
	elem.Convert(wb, b)
	bits := math.Float32bits
	require.Equal(t, bits(elem.Sum(wa)), bits(elem.SumHalf(a)), "%s: SumHalf", name)
	require.Equal(t, bits(elem.Dot(wa, wb)), bits(elem.DotHalf(a, b)), "%s: DotHalf", name)
	require.Equal(t, bits(elem.Dot(wa, y)), bits(elem.DotHalfFloat32(a, y)), "%s: DotHalfFloat32", name)
	require.Equal(t, bits(elem.Norm2(wa)), bits(elem.Norm2Half(a)), "%s: Norm2Half", name)
	want, got := make([]float32, len(x)), make([]float32, len(x))
	elem.MulScalar(want, wa, 0.37)
	elem.ScaleHalf(got, a, 0.37)
	require.Equal(t, bitsOf(want), bitsOf(got), "%s: ScaleHalf", name)
}
