package testkit

import (
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// GuardPages is a readable, writable region between two PROT_NONE pages, so
// that touching one byte before or after it faults.
type GuardPages struct {
	mem  []byte
	body []byte
}

// NewGuardPages maps bodyPages pages between two inaccessible ones; the
// mapping is released when the test ends.
func NewGuardPages(t testing.TB, bodyPages int) *GuardPages {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, (bodyPages+2)*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	require.NoError(t, err)
	t.Cleanup(func() { _ = syscall.Munmap(mem) })
	require.NoError(t, syscall.Mprotect(mem[:page], syscall.PROT_NONE))
	require.NoError(t, syscall.Mprotect(mem[len(mem)-page:], syscall.PROT_NONE))
	return &GuardPages{mem: mem, body: mem[page : len(mem)-page]}
}

// AtEnd returns n elements ending exactly at the trailing guard page.
func AtEnd[T any](g *GuardPages, n int) []T {
	all := elems[T](g)
	return all[len(all)-n:]
}

// AtStart returns n elements starting exactly after the leading guard page.
func AtStart[T any](g *GuardPages, n int) []T { return elems[T](g)[:n] }

func elems[T any](g *GuardPages) []T {
	var zero T
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(g.body))), len(g.body)/int(unsafe.Sizeof(zero)))
}
