package testkit

import (
	"testing"
	"unsafe"
)

// HeapArray returns n zero elements that fill their own Go heap object,
// allocated right after another object of the same size and before a
// third, so that a pointer formed just past either end of it, which the
// unsafe.Pointer rules forbid even undereferenced, most likely falls in a
// neighbour's slot of the same span: what checkptr (on under -race)
// reports as a fatal error. Guard pages (see [GuardPages]) catch accesses;
// HeapArray catches the arithmetic. n elements of T must fill one of the
// allocator's size classes (16 to 128 bytes by 16, 192, 256, 384 or 512
// bytes, for instance), so that no slack follows the last element;
// HeapArray panics otherwise.
func HeapArray[T any](n int) []T {
	switch int(unsafe.Sizeof(*new(T))) * n {
	case 16, 32, 48, 64, 80, 96, 112, 128, 192, 256, 384, 512:
	default:
		panic("testkit: HeapArray: not a size class")
	}
	var arrays [3][]T
	for i := range arrays {
		arrays[i] = make([]T, n)
	}
	return arrays[1]
}

// SkipAllocsUnderRace skips a test of allocation counts under -race, where
// they do not hold: checkptr's instrumentation of unsafe conversions makes
// their pointers escape to the heap.
func SkipAllocsUnderRace(t testing.TB) {
	if Race {
		t.Skip("allocation counts do not hold under -race")
	}
}
