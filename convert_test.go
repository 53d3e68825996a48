package elem

import (
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/testkit"
)

func TestConvert(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		src := []float32{-1.5, 0.5, 2.9, 300, -300, float32(math.NaN()), float32(math.Inf(1)), 1e10, 127, -128, 0, -0.99}
		i8 := make([]int8, len(src))
		Convert(i8, src)
		require.Equal(t, []int8{-1, 0, 2, 127, -128, 0, 127, 127, 127, -128, 0, 0}, i8)
		u16 := make([]uint16, len(src))
		Convert(u16, src)
		require.Equal(t, []uint16{0, 0, 2, 300, 0, 0, 65535, 65535, 127, 0, 0, 0}, u16)
		i32 := make([]int32, len(src))
		Convert(i32, src)
		require.Equal(t, []int32{-1, 0, 2, 300, -300, 0, math.MaxInt32, math.MaxInt32, 127, -128, 0, 0}, i32)

		back := make([]float32, len(i32))
		Convert(back, i32)
		require.Equal(t, []float32{-1, 0, 2, 300, -300, 0, 2147483648, 2147483648, 127, -128, 0, 0}, back)

		inPlace := []int32{1, -2, 3, 1 << 24, 1<<24 + 1}
		f := make([]float32, len(inPlace))
		Convert(f, inPlace)
		require.Equal(t, []float32{1, -2, 3, 16777216, 16777216}, f) // 2^24+1 rounds to even
	})
}

func TestConvertRejects(t *testing.T) {
	buf := make([]int32, 16)
	testkit.RequirePanicContains(t, "elem: Convert: slice lengths differ: len(dst) = 3, len(src) = 4", func() {
		Convert(make([]float32, 3), buf[:4])
	})
	testkit.RequirePanicContains(t, "elem: Convert: dst partly overlaps src", func() {
		Convert(asFloat32(buf[1:5]), buf[:4])
	})
}

// asFloat32 views an int32 slice's memory as float32s, the misuse an
// overlap check must catch.
func asFloat32(s []int32) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// TestConvertShortMatchesLong checks that the short slices' path (the
// generic row, up to smallN elements) gives the bits the kernels give a
// longer call, on special values of every kind.
func TestConvertShortMatchesLong(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		f32 := []float32{float32(math.NaN()), 0, float32(math.Inf(-1)), 1e10, -1e10, 255.5, -128.5, 2.5, 3.5, -0.99, 65535.9, float32(math.Copysign(0, -1))}
		f64 := []float64{math.NaN(), math.Inf(1), 4294967295.9, -1, 1e300, -0.5, 0.5, 2147483648, math.Copysign(0, -1), 3}
		i32 := []int32{math.MinInt32, math.MaxInt32, 1<<24 + 1, -(1<<24 + 1), 0, -1, 7, 1 << 30, 3, 5}
		i16 := []int16{-1, 255, 256, math.MinInt16, math.MaxInt16, 0, 128, -129, 9, 1}
		shortMatchesLong[int8](t, f32)
		shortMatchesLong[uint32](t, f64)
		shortMatchesLong[float32](t, i32)
		shortMatchesLong[float64](t, f32)
		shortMatchesLong[float32](t, f64)
		shortMatchesLong[uint8](t, i16)
	})
}

func shortMatchesLong[D, S Number](t *testing.T, src []S) {
	long := make([]S, 64)
	for i := range long {
		long[i] = src[i%len(src)]
	}
	want := make([]D, len(long))
	Convert(want, long)
	for n := 1; n <= smallN; n++ {
		for off := 0; off+n <= len(src); off++ {
			got := make([]D, n)
			Convert(got, long[off:off+n])
			for i := range got {
				require.Equal(t, testkit.RawBits(want[off+i]), testkit.RawBits(got[i]), "%T to %T, n=%d: %v", S(0), D(0), n, long[off+i])
			}
		}
	}
}
