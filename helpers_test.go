package elem

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// bits returns x's bit pattern, so that comparisons see NaN payloads and
// signed zeros.
func bits[T Float](x T) uint64 {
	if is32[T]() {
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(float64(x))
}

func fromBits[T Float](b uint64) T {
	if is32[T]() {
		return T(math.Float32frombits(uint32(b)))
	}
	return T(math.Float64frombits(b))
}

// specials are the values every kernel must treat exactly as Go does: NaNs
// with payloads, quiet and signalling, of both signs; signed zeros and
// infinities; subnormals; the largest and smallest normals.
func specials[T Float]() []T {
	if is32[T]() {
		pats := []uint64{
			0x7fc00000, 0x7fc00001, 0x7fd23456, 0xffc00003, 0xffe00007, // quiet NaNs
			0x7f800001, 0x7fa00005, 0xff900009, // signalling NaNs
			0x00000000, 0x80000000, 0x7f800000, 0xff800000, // zeros, infinities
			0x00000001, 0x80000001, 0x007fffff, 0x00800000, // subnormals, min normal
			0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbfc00000, 0x40400000, // max, 1, -1.5, 3
		}
		out := make([]T, len(pats))
		for i, p := range pats {
			out[i] = fromBits[T](p)
		}
		return out
	}
	pats := []uint64{
		0x7ff8000000000000, 0x7ff8000000000001, 0x7ffa3456789abcde, 0xfff8000000000003,
		0x7ff0000000000001, 0x7ff4000000000005, 0xfff2000000000009,
		0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000,
		1, 1<<63 | 1, 0x000fffffffffffff, 0x0010000000000000,
		0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000, 0xbff8000000000000, 0x4008000000000000,
	}
	out := make([]T, len(pats))
	for i, p := range pats {
		out[i] = fromBits[T](p)
	}
	return out
}

// randomData returns n values, mostly random of mixed signs and magnitudes,
// one in four a special value.
func randomData[T Float](rng *rand.Rand, n int) []T {
	sp := specials[T]()
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

// guardCell fills the cells around every output so that a stray write shows.
func guardCell[T Float]() T {
	if is32[T]() {
		return fromBits[T](0x7fbadbad)
	}
	return fromBits[T](0x7ffbadbadbadbad)
}

const guardLen = 16

// guardedBuf is an output window with guard cells on both sides.
type guardedBuf[T Float] struct {
	buf   []T
	first int // index of the window in buf
	n     int
}

// newGuarded returns n cells at offset off inside a buffer whose every other
// cell is a guard.
func newGuarded[T Float](n, off int) guardedBuf[T] {
	g := guardedBuf[T]{buf: make([]T, n+2*guardLen+off), first: guardLen + off, n: n}
	for i := range g.buf {
		g.buf[i] = guardCell[T]()
	}
	return g
}

// window is the output slice, capped so that appends cannot reach the guards.
func (g guardedBuf[T]) window() []T { return g.buf[g.first : g.first+g.n : g.first+g.n] }

// requireGuards checks that nothing outside the window changed.
func (g guardedBuf[T]) requireGuards(t testing.TB, what string) {
	t.Helper()
	want := bits(guardCell[T]())
	for i, v := range g.buf {
		if (i < g.first || i >= g.first+g.n) && bits(v) != want {
			require.Failf(t, "write outside the output", "%s: guard cell %d (window at %d, length %d) changed to %#x",
				what, i, g.first, g.n, bits(v))
		}
	}
}

// requireSameBits compares got with want cell by cell, bit for bit.
func requireSameBits[T Float](t testing.TB, want, got []T, what string) {
	t.Helper()
	require.Equal(t, len(want), len(got), what)
	for i := range want {
		if bits(want[i]) != bits(got[i]) {
			require.Failf(t, "bits differ from the generic kernel",
				"%s: element %d of %d: want %#x (%v), got %#x (%v)", what, i, len(want), bits(want[i]), want[i], bits(got[i]), got[i])
		}
	}
}

// eachImplementation runs f once per available implementation, with that
// implementation in use, and, where the kernels have streaming-store forms,
// once more per SIMD implementation with every call streaming. It restores
// the previous implementation.
func eachImplementation(t *testing.T, f func(t *testing.T)) {
	prev, prevStream := Implementation(), streamMinBytes
	t.Cleanup(func() {
		require.NoError(t, SetImplementation(prev))
		streamMinBytes = prevStream
	})
	for _, name := range Implementations() {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, SetImplementation(name))
			f(t)
		})
		if hasStreaming && name != "generic" {
			t.Run(name+"-stream", func(t *testing.T) {
				require.NoError(t, SetImplementation(name))
				streamMinBytes = 0
				defer func() { streamMinBytes = prevStream }()
				f(t)
			})
		}
	}
}

// requirePanicContains checks that f panics with a message containing want.
func requirePanicContains(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		require.NotNil(t, r, "no panic; want one containing %q", want)
		require.Contains(t, fmt.Sprint(r), want)
	}()
	f()
}

// run computes the m x n block of kind k as the library's calls do, with
// streaming stores when the call is big enough (or the test lowered
// streamMinBytes).
func run[T Float](k kind, op Op, m, n int, dst []T, ldd int, a []T, lda int, b []T, ldb int) {
	runKernel(k, op, m, n, dst, ldd, a, lda, b, ldb, streaming[T](k, m, n, lda, ldb))
}
