package testkit

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// guardBits is the bit pattern of the cells around every output, so that a
// stray write shows: for floats a NaN no kernel computes, for bytes (a
// []bool) a value no bool has.
func guardBits(size uintptr) uint64 {
	switch size {
	case 1:
		return 0xa5
	case 2:
		return 0xbadb
	case 4:
		return 0x7fbadbad
	}
	return 0x7ffbadbadbadbad
}

// RawBits returns the bit pattern of x, of any 1-, 2-, 4- or 8-byte type.
func RawBits[E any](x E) uint64 {
	switch unsafe.Sizeof(x) {
	case 1:
		return uint64(*(*uint8)(unsafe.Pointer(&x)))
	case 2:
		return uint64(*(*uint16)(unsafe.Pointer(&x)))
	case 4:
		return uint64(*(*uint32)(unsafe.Pointer(&x)))
	}
	return *(*uint64)(unsafe.Pointer(&x))
}

// setRawBits sets x's bit pattern.
func setRawBits[E any](x *E, b uint64) {
	switch unsafe.Sizeof(*x) {
	case 1:
		*(*uint8)(unsafe.Pointer(x)) = uint8(b)
	case 2:
		*(*uint16)(unsafe.Pointer(x)) = uint16(b)
	case 4:
		*(*uint32)(unsafe.Pointer(x)) = uint32(b)
	default:
		*(*uint64)(unsafe.Pointer(x)) = b
	}
}

// GuardCell is the value of the cells around every output.
func GuardCell[E any]() E {
	var x E
	setRawBits(&x, guardBits(unsafe.Sizeof(x)))
	return x
}

// guardLen is the number of guard cells on each side of a window.
const guardLen = 16

// Guarded is an output window with guard cells on both sides.
type Guarded[E any] struct {
	buf   []E
	first int // index of the window in buf
	n     int
}

// NewGuarded returns n cells at offset off (in elements, for alignment)
// inside a buffer whose every other cell is a guard.
func NewGuarded[E any](n, off int) Guarded[E] {
	g := Guarded[E]{buf: make([]E, n+2*guardLen+off), first: guardLen + off, n: n}
	for i := range g.buf {
		g.buf[i] = GuardCell[E]()
	}
	return g
}

// Window is the output slice, capped so that appends cannot reach the guards.
func (g Guarded[E]) Window() []E { return g.buf[g.first : g.first+g.n : g.first+g.n] }

// RequireGuards checks that nothing outside the window changed.
func (g Guarded[E]) RequireGuards(t testing.TB, what string) {
	want := RawBits(GuardCell[E]())
	check := func(from, to int) {
		for i := from; i < to; i++ {
			if RawBits(g.buf[i]) != want {
				t.Helper() // only here: it walks the stack, and the sweeps check guards millions of times
				require.Failf(t, "write outside the output", "%s: guard cell %d (window at %d, length %d) changed to %#x",
					what, i, g.first, g.n, RawBits(g.buf[i]))
			}
		}
	}
	check(0, g.first)
	check(g.first+g.n, len(g.buf))
}

// RequireSameBits compares got with want cell by cell, bit for bit, so that
// NaN payloads and signed zeros count.
func RequireSameBits[E any](t testing.TB, want, got []E, what string) {
	if len(want) != len(got) {
		t.Helper()
		require.Equal(t, len(want), len(got), what)
	}
	for i := range want {
		if RawBits(want[i]) != RawBits(got[i]) {
			t.Helper() // only on a difference: it walks the stack
			require.Failf(t, "bits differ from the reference",
				"%s: element %d of %d: want %#x (%v), got %#x (%v)", what, i, len(want), RawBits(want[i]), want[i], RawBits(got[i]), got[i])
		}
	}
}

// FromRawBits returns the E whose bit pattern is b (its low bits for
// narrower types).
func FromRawBits[E any](b uint64) E {
	var x E
	setRawBits(&x, b)
	return x
}
