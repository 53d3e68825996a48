//go:build linux

package bigbuf

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

const onLinux = true

// isMapped reports whether s starts a live mapping of Make's.
func isMapped[T any](s []T) bool {
	mapped.Lock()
	defer mapped.Unlock()
	_, ok := mapped.m[uintptr(unsafe.Pointer(unsafe.SliceData(s)))]
	return ok
}

func TestFreeRejectsInteriorSlice(t *testing.T) {
	s := Make[float32](Threshold)
	for _, c := range []struct {
		name string
		s    []float32
	}{{"second element", s[1:]}, {"last element", s[len(s)-1:]}} {
		t.Run(c.name, func(t *testing.T) {
			require.PanicsWithValue(t, "bigbuf: Free: the slice starts inside a buffer from Make, not at its first element",
				func() { Free(c.s) })
			require.True(t, isMapped(s), "nothing released")
		})
	}
	require.NotPanics(t, func() { Free(s[:0:0]) }, "same first element, length and capacity 0")
	require.False(t, isMapped(s))
}

// TestHugePageAdvice checks in /proc/self/smaps that a mapping starts on a
// huge-page boundary, is a whole number of huge pages, and carries the
// kernel's "hg" flag (MADV_HUGEPAGE).
func TestHugePageAdvice(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages:", err)
	}
	probe, err := unix.Mmap(-1, 0, hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	require.NoError(t, err)
	require.NoError(t, unix.Madvise(probe, unix.MADV_HUGEPAGE))
	_, _, flags := mapping(t, uintptr(unsafe.Pointer(&probe[0])))
	require.NoError(t, unix.Munmap(probe)) // before Make, so that the two cannot merge
	if !slices.Contains(flags, "hg") {
		t.Skip("madvise(MADV_HUGEPAGE) leaves no trace in smaps here (qemu-user ignores it)")
	}

	s := Make[float64](Threshold/8*3 + 1)
	defer Free(s)
	start := uintptr(unsafe.Pointer(&s[0]))
	require.Zero(t, start%hugePage, "start aligned to a huge page")
	lo, hi, flags := mapping(t, start)
	require.Equal(t, start, lo, "the mapping starts at the buffer")
	require.Equal(t, uintptr(4*hugePage), hi-lo, "whole huge pages")
	require.Contains(t, flags, "hg", "MADV_HUGEPAGE advised")
}

// mapping returns the bounds and VmFlags of the mapping that holds addr,
// from /proc/self/smaps.
func mapping(t *testing.T, addr uintptr) (lo, hi uintptr, flags []string) {
	data, err := os.ReadFile("/proc/self/smaps")
	require.NoError(t, err)
	found := false
	for _, line := range strings.Split(string(data), "\n") {
		if r, _, _ := strings.Cut(line, " "); strings.Contains(r, "-") { // "start-end perms ...", a mapping's first line
			l, h, _ := strings.Cut(r, "-")
			l64, err := strconv.ParseUint(l, 16, 64)
			require.NoError(t, err, line)
			h64, err := strconv.ParseUint(h, 16, 64)
			require.NoError(t, err, line)
			lo, hi = uintptr(l64), uintptr(h64)
			found = lo <= addr && addr < hi
			continue
		}
		if f, ok := strings.CutPrefix(line, "VmFlags:"); ok && found {
			return lo, hi, strings.Fields(f)
		}
	}
	require.Fail(t, "no mapping holds the address", "%#x", addr)
	return 0, 0, nil
}
