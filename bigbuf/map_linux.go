//go:build linux

package bigbuf

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of an x86-64 and arm64 (4 KiB granule) transparent
// huge page; mappings start on it and are a whole number of them.
const hugePage = 2 << 20

// mapped records every live mapping: start address to length in bytes.
var mapped = struct {
	sync.Mutex
	m map[uintptr]uintptr
}{m: map[uintptr]uintptr{}}

// mapHuge maps at least size zeroed bytes, 2 MiB aligned, advises huge pages
// for them and records the mapping. It returns nil if the mapping fails. A
// failed madvise (a kernel without transparent huge pages) is ignored: the
// advice is only a hint.
func mapHuge(size int) unsafe.Pointer {
	length := (uintptr(size) + hugePage - 1) &^ (hugePage - 1)
	// Map one huge page more than needed and unmap the ends, to align.
	p, err := unix.MmapPtr(-1, 0, nil, length+hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	head := (hugePage - uintptr(p)%hugePage) % hugePage
	if head > 0 {
		mustUnmap(p, head)
	}
	p = unsafe.Add(p, head)
	mustUnmap(unsafe.Add(p, length), hugePage-head)
	_ = unix.Madvise(unsafe.Slice((*byte)(p), length), unix.MADV_HUGEPAGE)
	mapped.Lock()
	mapped.m[uintptr(p)] = length
	mapped.Unlock()
	return p
}

// unmap releases the mapping that starts at p. It does nothing if no mapping
// contains p (Go heap memory), and panics if p is inside one but not at its
// start.
func unmap(p unsafe.Pointer) {
	addr := uintptr(p)
	mapped.Lock()
	length, ok := mapped.m[addr]
	inside := false
	if ok {
		delete(mapped.m, addr)
	} else {
		for start, n := range mapped.m {
			inside = inside || start < addr && addr < start+n
		}
	}
	mapped.Unlock()
	switch {
	case ok:
		mustUnmap(p, length)
	case inside:
		panic("bigbuf: Free: the slice starts inside a buffer from Make, not at its first element")
	}
}

func mustUnmap(p unsafe.Pointer, length uintptr) {
	if err := unix.MunmapPtr(p, length); err != nil {
		panic("bigbuf: munmap: " + err.Error())
	}
}
