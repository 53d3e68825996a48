//go:build linux

package bigbuf

import (
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

const onLinux = true

// stateOf reports what the records say of the buffer that s starts.
func stateOf[T any](s []T) bufferState {
	p := unsafe.Pointer(unsafe.SliceData(s))
	mapped.Lock()
	defer mapped.Unlock()
	switch i, ok := find(uintptr(p)); {
	case !ok || mapped.byStart[i].start != p:
		return unknown
	case mapped.byStart[i].freed:
		return reserved
	}
	return live
}

// notMakes is the message of Free's panic for a slice of len length and cap
// capacity starting at element from of a live buffer of n elements.
func notMakes(length, capacity, from, n int) string {
	return fmt.Sprintf("bigbuf: Free: the slice (len %d, cap %d) starting at element %d of a buffer of %d elements from Make is not the slice Make returned; nothing released",
		length, capacity, from, n)
}

func TestFreeRejectsOtherSlices(t *testing.T) {
	const n = 1 << 20
	s := Make[float32](n)
	for _, c := range []struct {
		name string
		s    []float32
		msg  string
	}{
		// gc keeps the first element's address for a reslice of capacity 0,
		// which is why this one used to free the whole buffer.
		{"s[len(s):]", s[len(s):], notMakes(0, 0, 0, n)},
		{"s[:0:0]", s[:0:0], notMakes(0, 0, 0, n)},
		{"s[:0]", s[:0], notMakes(0, n, 0, n)},
		{"s[:len(s)-1]", s[:len(s)-1], notMakes(n-1, n, 0, n)},
		{"s[:len(s)-1:len(s)-1]", s[: len(s)-1 : len(s)-1], notMakes(n-1, n-1, 0, n)},
		{"s[1:]", s[1:], notMakes(n-1, n-1, 1, n)},
		{"s[len(s)-1:]", s[len(s)-1:], notMakes(1, 1, n-1, n)},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.PanicsWithValue(t, c.msg, func() { Free(c.s) })
			require.Equal(t, live, stateOf(s), "nothing released")
			s[0], s[len(s)-1] = 1, 2
			require.Equal(t, []float32{1, 2}, []float32{s[0], s[len(s)-1]})
		})
	}
	require.NotPanics(t, func() { Free(s) })
	require.Equal(t, reserved, stateOf(s))
}

func TestDoubleFree(t *testing.T) {
	const n = 1 << 20
	for _, c := range []struct {
		name  string
		again func(s []float32) []float32
		msg   string
	}{
		{"the same slice", func(s []float32) []float32 { return s }, alreadyFreed(n, n, 0, n)},
		{"a reslice", func(s []float32) []float32 { return s[1:] }, alreadyFreed(n-1, n-1, 1, n)},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Make[float32](n)
			Free(s)
			newer := Make[float32](n) // would get s's addresses, were they not reserved
			defer Free(newer)
			start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
			require.NotEqual(t, start, uintptr(unsafe.Pointer(unsafe.SliceData(newer))))

			require.PanicsWithValue(t, c.msg, func() { Free(c.again(s)) })
			require.Equal(t, live, stateOf(newer), "the newer buffer is still mapped")
			newer[0], newer[n-1] = 1, 2
			require.Equal(t, []float32{1, 2}, []float32{newer[0], newer[n-1]})
			require.Equal(t, reserved, stateOf(s), "still reserved")
			_, _, flags := mapping(t, start)
			require.NotContains(t, flags, "rd", "the freed range is inaccessible")
		})
	}
}

// alreadyFreed is notMakes for a buffer that was already freed.
func alreadyFreed(length, capacity, from, n int) string {
	return fmt.Sprintf("bigbuf: Free: already freed: the slice (len %d, cap %d) starting at element %d of a buffer of %d elements from Make; nothing released",
		length, capacity, from, n)
}

// TestQuarantineBounds frees buffers into a quarantine limited to two huge
// pages of address space, then fills it up to quarantineLen.
func TestQuarantineBounds(t *testing.T) {
	defer func(b uintptr) { quarantineBytes = b }(quarantineBytes)
	quarantineBytes = 2 * hugePage
	releaseQuarantine()
	const page = hugePage / 4 // float32 elements in a huge page
	two, one, three := Make[float32](2*page), Make[float32](page), Make[float32](3*page)
	for _, step := range []struct {
		free       []float32
		two, three bufferState
	}{
		{two, reserved, live},
		{one, unknown, live},      // the two buffers would hold three huge pages
		{three, unknown, unknown}, // bigger than the whole quarantine
	} {
		Free(step.free)
		require.Equal(t, step.two, stateOf(two))
		require.Equal(t, step.three, stateOf(three))
	}
	require.Equal(t, reserved, stateOf(one))

	quarantineBytes = quarantineLen * hugePage
	for range quarantineLen - 1 {
		Free(Make[float32](page))
		require.Equal(t, reserved, stateOf(one))
	}
	Free(Make[float32](page))
	require.Equal(t, unknown, stateOf(one), "pushed out by the quarantineLen-th buffer after it")
	require.NotPanics(t, func() { Free(one) }, "forgotten: like Go heap memory")
}

// TestRefusedMappingReleasesQuarantine runs itself again in a child process
// that limits its address space (ulimit -v) to what it uses plus too little
// for a buffer, but enough once the quarantine is given back.
func TestRefusedMappingReleasesQuarantine(t *testing.T) {
	const n = 128 << 20 / 4 // 128 MiB of float32
	if os.Getenv("BIGBUF_TEST_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
		cmd.Env = append(os.Environ(), "BIGBUF_TEST_CHILD=1")
		out, err := cmd.CombinedOutput()
		if errors.Is(err, unix.ENOEXEC) {
			t.Skip("cannot run the test binary again (an emulated run):", err)
		}
		require.NoError(t, err, "%s", out)
		require.Contains(t, string(out), "--- PASS: "+t.Name())
		return
	}
	for range 4 {
		Free(Make[float32](n))
	}
	var limit unix.Rlimit
	require.NoError(t, unix.Getrlimit(unix.RLIMIT_AS, &limit))
	limit.Cur = vmSize(t) + 48<<20 // room for the Go runtime, not for another buffer
	require.NoError(t, unix.Setrlimit(unix.RLIMIT_AS, &limit))
	_, err := unix.Mmap(-1, 0, 4*n+hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	require.ErrorIs(t, err, unix.ENOMEM, "the limit bites")

	s, err := TryMake[float32](n)
	require.NoError(t, err)
	require.Equal(t, live, stateOf(s))
	require.Empty(t, mapped.quarantine)
}

// vmSize returns the process's address space in bytes (VmSize in
// /proc/self/status).
func vmSize(t *testing.T) uint64 {
	data, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kib, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(v, "kB")), 10, 64)
			require.NoError(t, err, line)
			return kib << 10
		}
	}
	require.Fail(t, "no VmSize in /proc/self/status")
	return 0
}

func TestTryMakeRefused(t *testing.T) {
	if strconv.IntSize == 32 {
		t.Skip("the most elements Make takes fit in a 32-bit process's address space")
	}
	const n = (math.MaxInt - Align) / 4 // the most float32 elements Make takes
	s, err := TryMake[float32](n)
	require.ErrorIs(t, err, unix.ENOMEM)
	require.EqualError(t, err, fmt.Sprintf("bigbuf: TryMake: mapping %d elements of 4 bytes: %v", n, unix.ENOMEM))
	require.Nil(t, s)
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
