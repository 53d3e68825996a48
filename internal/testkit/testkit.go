// Package testkit is what the tests of every elem package share: bit
// patterns and special values, bit-for-bit comparison, guarded output
// buffers, guard pages, and a runner over every implementation. Only tests
// import it.
package testkit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
)

// Float is the element type of the floating-point kernels.
type Float = kernel.Float

// Is32 reports whether T is float32-based.
func Is32[T Float]() bool { return unsafe.Sizeof(T(0)) == 4 }

// Bits returns x's bit pattern, so that comparisons see NaN payloads and
// signed zeros.
func Bits[T Float](x T) uint64 {
	if Is32[T]() {
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(float64(x))
}

// FromBits returns the T with bit pattern b (its low 32 bits for float32).
func FromBits[T Float](b uint64) T {
	if Is32[T]() {
		return T(math.Float32frombits(uint32(b)))
	}
	return T(math.Float64frombits(b))
}

// SignBit is the sign bit of T's pattern.
func SignBit[T Float]() uint64 {
	if Is32[T]() {
		return 1 << 31
	}
	return 1 << 63
}

// Specials are the values every kernel must treat exactly as Go does: NaNs
// with payloads, quiet and signalling, of both signs; signed zeros and
// infinities; subnormals; the largest and smallest normals; rounding ties
// and the values around 2^23 (2^52), where float32 (float64) numbers stop
// having fractions.
func Specials[T Float]() []T {
	pats := []uint64{
		0x7ff8000000000000, 0x7ff8000000000001, 0x7ffa3456789abcde, 0xfff8000000000003,
		0x7ff0000000000001, 0x7ff4000000000005, 0xfff2000000000009,
		0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000,
		1, 1<<63 | 1, 0x000fffffffffffff, 0x0010000000000000,
		0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000, 0xbff8000000000000, 0x4008000000000000,
		0x3fe0000000000000, 0xbfe0000000000000, 0x4004000000000000, 0xc004000000000000, // ±0.5, ±2.5: ties
		0x432fffffffffffff, 0x4330000000000001, 0xc32fffffffffffff, // 2^52 - 0.5, 2^52 + 1, -(2^52 - 0.5)
	}
	if Is32[T]() {
		pats = []uint64{
			0x7fc00000, 0x7fc00001, 0x7fd23456, 0xffc00003, 0xffe00007, // quiet NaNs
			0x7f800001, 0x7fa00005, 0xff900009, // signalling NaNs
			0x00000000, 0x80000000, 0x7f800000, 0xff800000, // zeros, infinities
			0x00000001, 0x80000001, 0x007fffff, 0x00800000, // subnormals, min normal
			0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbfc00000, 0x40400000, // max, 1, -1.5, 3
			0x3f000000, 0xbf000000, 0x40200000, 0xc0200000, // ±0.5, ±2.5: ties
			0x4affffff, 0x4b000001, 0xcaffffff, // 2^23 - 0.5, 2^23 + 1, -(2^23 - 0.5)
		}
	}
	out := make([]T, len(pats))
	for i, p := range pats {
		out[i] = FromBits[T](p)
	}
	return out
}

// RandomData returns n values, mostly random of mixed signs and magnitudes,
// one in four a special value.
func RandomData[T Float](rng *rand.Rand, n int) []T {
	sp := Specials[T]()
	out := make([]T, n)
	for i := range out {
		if rng.IntN(4) == 0 {
			out[i] = sp[rng.IntN(len(sp))]
			continue
		}
		out[i] = T((rng.Float64()*2 - 1) * math.Pow(2, float64(rng.IntN(40)-20)))
	}
	return out
}

// RandomNumbers is RandomData for the float types and RandomInts for the
// integer ones, for tests that run over every element type.
func RandomNumbers[T kernel.Number](rng *rand.Rand, n int) []T {
	out := make([]T, n)
	switch s := any(out).(type) {
	case []float32:
		copy(s, RandomData[float32](rng, n))
	case []float64:
		copy(s, RandomData[float64](rng, n))
	default: // an integer type: its specials are the low bits of uint64's
		sp := IntSpecials[uint64]()
		for i := range out {
			b := rng.Uint64()
			if rng.IntN(4) == 0 {
				b = sp[rng.IntN(len(sp))] >> (rng.IntN(8) * 8)
			}
			out[i] = FromRawBits[T](b)
		}
	}
	return out
}

// RequirePanicContains checks that f panics with a message containing want.
func RequirePanicContains(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		require.NotNil(t, r, "no panic; want one containing %q", want)
		require.Contains(t, fmt.Sprint(r), want)
	}()
	f()
}

// EachSIMDImplementation is EachImplementation without the generic kernels
// and the automatic choice, for the tests that compare kernels with the generic reference, which for
// the generic kernels is the code under test itself. Without an assembly
// implementation (other architectures, purego) it skips the test.
func EachSIMDImplementation(t *testing.T, f func(t *testing.T)) {
	if len(kernel.Available()) == 1 {
		t.Skip("no assembly implementation here: the generic kernels are the reference itself")
	}
	eachImplementation(t, f, false)
}

// EachImplementation runs f once per available implementation, with that
// implementation forced, and, where the kernels have streaming-store forms,
// once more per SIMD implementation with every call streaming; then once
// with the automatic choice by size. It restores the dispatch and the
// streaming threshold. Under -race it runs the generic kernels and the last
// (widest) SIMD implementation only, with and without streaming: the
// others differ in their assembly alone, which -race cannot see and the
// runs without it test.
func EachImplementation(t *testing.T, f func(t *testing.T)) { eachImplementation(t, f, true) }

func eachImplementation(t *testing.T, f func(t *testing.T), generic bool) {
	saved := kernel.Save()
	t.Cleanup(func() { kernel.Restore(saved) })
	available := kernel.Available()
	for i, impl := range available {
		if impl == kernel.Generic && !generic || Race && impl != kernel.Generic && i < len(available)-1 {
			continue
		}
		t.Run(impl.String(), func(t *testing.T) {
			kernel.Restore(saved)
			kernel.Use(impl, "test")
			f(t)
		})
		if kernel.HasStreaming && impl != kernel.Generic {
			t.Run(impl.String()+"-stream", func(t *testing.T) {
				kernel.Restore(saved)
				kernel.Use(impl, "test")
				kernel.SetStreamMinBytes(0)
				f(t)
			})
		}
	}
	if !generic || Race {
		return // the automatic choice only picks among the kernels just tested
	}
	t.Run(kernel.AutoName, func(t *testing.T) {
		kernel.Restore(saved)
		kernel.UseAuto("test")
		f(t)
	})
}

// Integer is the element type of the integer kernels.
type Integer = kernel.Integer

// IntSpecials are the values every integer kernel must treat exactly as Go
// does: 0, ±1, the extremes and their neighbours, alternating bit patterns.
func IntSpecials[T Integer]() []T {
	var zero T
	bits := 8 * int(unsafe.Sizeof(zero))
	one := T(1)
	top := one << (bits - 1) // the sign bit: the minimum of signed types
	all := ^zero             // -1, or the maximum of unsigned types
	var alt T
	for i := 0; i < bits; i += 2 {
		alt |= one << i
	}
	return []T{0, 1, 2, 3, all, all - 1, top, top + 1, top - 1, top - 2, alt, ^alt, 7, 100, one << (bits / 2)}
}

// RandomInts returns n values, mostly random bit patterns, one in four a
// special value.
func RandomInts[T Integer](rng *rand.Rand, n int) []T {
	sp := IntSpecials[T]()
	out := make([]T, n)
	for i := range out {
		if rng.IntN(4) == 0 {
			out[i] = sp[rng.IntN(len(sp))]
			continue
		}
		out[i] = T(rng.Uint64())
	}
	return out
}

// ShiftCounts are the counts every shift must treat as Go does: every count
// below the width of the widest type, the widths themselves, and far beyond.
func ShiftCounts() []uint {
	var cs []uint
	for c := range uint(66) {
		cs = append(cs, c)
	}
	return append(cs, 100, 127, 128, 255, 256, 1<<31, ^uint(0)>>32<<32+3, ^uint(0)) // 1<<32+3 where uint has 64 bits
}

// Sweep returns how far a test sweeps (lengths, offsets, cases): full
// normally, short under -short (emulators), race under -race, where the Go
// code (the references, the generic kernels, the dispatch) runs several
// times slower while the assembly, which -race cannot see, is swept by the
// runs without it; what -race checks, the Go code's races and unsafe
// pointers, a few cases of each path cover.
func Sweep(full, short, race int) int {
	switch {
	case Race:
		return race
	case testing.Short():
		return short
	}
	return full
}
