//go:build linux

package elem

import (
	"fmt"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// guardPages maps a readable, writable region between two PROT_NONE pages, so
// that touching one byte before or after it faults.
type guardPages struct {
	mem  []byte
	body []byte
}

func newGuardPages(t *testing.T, bodyPages int) *guardPages {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, (bodyPages+2)*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	require.NoError(t, err)
	t.Cleanup(func() { _ = syscall.Munmap(mem) })
	require.NoError(t, syscall.Mprotect(mem[:page], syscall.PROT_NONE))
	require.NoError(t, syscall.Mprotect(mem[len(mem)-page:], syscall.PROT_NONE))
	return &guardPages{mem: mem, body: mem[page : len(mem)-page]}
}

// atEnd returns n elements ending exactly at the trailing guard page.
func atEnd[T Float](g *guardPages, n int) []T {
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(g.body))), len(g.body)/int(unsafe.Sizeof(T(0))))
	return all[len(all)-n:]
}

// atStart returns n elements starting exactly after the leading guard page.
func atStart[T Float](g *guardPages, n int) []T {
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(g.body))), len(g.body)/int(unsafe.Sizeof(T(0))))
	return all[:n]
}

// TestGuardPages runs every kernel on every length up to 130 with each operand
// flush against an inaccessible page, after it and before it: a read or write
// past either end of any slice faults and kills the test.
func TestGuardPages(t *testing.T) {
	eachImplementation(t, func(t *testing.T) {
		t.Run("float32", testGuardPages[float32])
		t.Run("float64", testGuardPages[float64])
	})
}

func testGuardPages[T Float](t *testing.T) {
	gd, ga, gb := newGuardPages(t, 1), newGuardPages(t, 1), newGuardPages(t, 1)
	for _, place := range []struct {
		name string
		at   func(*guardPages, int) []T
	}{{"end", atEnd[T]}, {"start", atStart[T]}} {
		for _, k := range kinds {
			for _, op := range Ops() {
				for n := 0; n <= 130; n++ {
					na, nb := k.operandLen(k != kindSV, n), k.operandLen(k != kindVS, n)
					dst, a, b := place.at(gd, n), place.at(ga, na), place.at(gb, nb)
					for i := range a {
						a[i] = T(i + 1)
					}
					for i := range b {
						b[i] = T(2*i + 1)
					}
					want := make([]T, n)
					runGeneric(k, op, 1, n, want, 0, a, 0, b, 0)
					run(k, op, 1, n, dst, 0, a, 0, b, 0)
					requireSameBits(t, want, dst, fmt.Sprintf("%s %s n=%d at %s", k, op, n, place.name))
				}
			}
		}
		// Several rows, the last one flush against the page.
		for _, n := range []int{1, 3, 4, 7, 8, 9, 16, 17, 24, 32, 33} {
			const m = 4
			dst, a, b := place.at(gd, m*n), place.at(ga, m*n), place.at(gb, n)
			run(kindVV, OpAdd, m, n, dst, n, a, n, b, 0)
			run(kindVS, OpMax, m, n, dst, n, a, n, place.at(gb, m), 1)
			run(kindSV, OpDiv, m, n, dst, n, place.at(ga, m), 1, b, 0)
		}
	}
}
