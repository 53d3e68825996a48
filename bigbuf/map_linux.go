//go:build linux

package bigbuf

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of an x86-64 and arm64 (4 KiB granule) transparent
// huge page; mappings start on it and are a whole number of them.
const hugePage = 2 << 20

// quarantineLen is how many freed buffers keep their addresses reserved, so
// that Free of one of them again is caught instead of unmapping a newer buffer
// that got the same address, length and capacity.
const quarantineLen = 64

// quarantineBytes bounds the address space the quarantine holds: 1 TiB in a
// 64-bit process, which mostly has 128 TiB or more, none in a 32-bit one,
// whose 3 or 4 GiB the Go heap needs. A variable, so that tests can lower it.
var quarantineBytes = unsafe.Sizeof(uintptr(0)) / 8 << 40

// buffer is a mapping of Make's: it spans span bytes from start, and the slice
// Make returned has bytes bytes of length and of capacity from start.
type buffer struct {
	start       unsafe.Pointer
	span, bytes uintptr
	freed       bool // its memory released, its range reserved PROT_NONE
}

// mapped records every live mapping and every freed one whose range is still
// reserved (the quarantine).
var mapped struct {
	sync.Mutex
	byStart     []buffer  // sorted by start; the ranges are disjoint
	quarantine  []uintptr // the starts of the freed buffers, oldest first
	quarantined uintptr   // the address space they hold
}

// mapHuge maps at least size zeroed bytes, 2 MiB aligned, advises huge pages
// for them and records the mapping. If the mapping is refused, it gives the
// quarantine back to the system and tries again, so that the quarantine never
// makes Make or TryMake fail. A failed madvise (a kernel without transparent huge
// pages) is ignored: the advice is only a hint.
func mapHuge(size int) (unsafe.Pointer, error) {
	span := (uintptr(size) + hugePage - 1) &^ (hugePage - 1)
	p, err := mapAligned(span)
	if err != nil && releaseQuarantine() {
		p, err = mapAligned(span)
	}
	if err != nil {
		return nil, err
	}
	_ = unix.Madvise(unsafe.Slice((*byte)(p), span), unix.MADV_HUGEPAGE)
	mapped.Lock()
	i, _ := slices.BinarySearchFunc(mapped.byStart, uintptr(p), byStart)
	mapped.byStart = slices.Insert(mapped.byStart, i, buffer{start: p, span: span, bytes: uintptr(size)})
	mapped.Unlock()
	return p, nil
}

// mapAligned maps span bytes at a huge-page boundary: one huge page more than
// needed, with the ends unmapped.
func mapAligned(span uintptr) (unsafe.Pointer, error) {
	p, err := unix.MmapPtr(-1, 0, nil, span+hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, err
	}
	head := (hugePage - uintptr(p)%hugePage) % hugePage
	if head > 0 {
		mustUnmap(p, head)
	}
	p = unsafe.Add(p, head)
	mustUnmap(unsafe.Add(p, span), hugePage-head)
	return p, nil
}

// release frees the buffer whose slice Make returned starts at p with the
// given length and capacity in elements of size bytes: its memory goes back
// to the system and its range into the quarantine. It does nothing if no
// recorded mapping holds p (Go heap memory), and panics if one does but the
// slice is not exactly the live buffer's. The system calls are made under
// the lock: were the buffer marked freed first and its range reserved after,
// another Free could push it out of the quarantine and unmap it in between,
// and MAP_FIXED would then replace whatever was mapped there next.
func release(p unsafe.Pointer, length, capacity, size int) {
	addr := uintptr(p)
	mapped.Lock()
	defer mapped.Unlock()
	i, ok := find(addr)
	if !ok {
		return
	}
	m := mapped.byStart[i]
	describe := func() string {
		return fmt.Sprintf("the slice (len %d, cap %d) starting at element %d of a buffer of %d elements from Make",
			length, capacity, (addr-uintptr(m.start))/uintptr(size), m.bytes/uintptr(size))
	}
	switch {
	case m.freed:
		panic("bigbuf: Free: already freed: " + describe() + "; nothing released")
	case p != m.start || uintptr(length*size) != m.bytes || uintptr(capacity*size) != m.bytes:
		panic("bigbuf: Free: " + describe() + " is not the slice Make returned; nothing released")
	}
	if m.span > quarantineBytes {
		unmapAt(i)
		return
	}
	for len(mapped.quarantine) == quarantineLen || mapped.quarantined+m.span > quarantineBytes {
		evictOldest()
	}
	i, _ = find(addr) // evicting moved it
	// MAP_FIXED replaces the mapping in one step, releasing its memory; if
	// that fails, the old mapping may or may not be gone, and munmap settles it.
	_, err := unix.MmapPtr(-1, 0, p, m.span, unix.PROT_NONE, unix.MAP_ANON|unix.MAP_PRIVATE|unix.MAP_FIXED|unix.MAP_NORESERVE)
	if err != nil {
		unmapAt(i)
		return
	}
	mapped.byStart[i].freed = true
	mapped.quarantine = append(mapped.quarantine, addr)
	mapped.quarantined += m.span
}

// releaseQuarantine gives every reserved range back to the system and reports
// whether there was any.
func releaseQuarantine() bool {
	mapped.Lock()
	defer mapped.Unlock()
	had := len(mapped.quarantine) > 0
	for len(mapped.quarantine) > 0 {
		evictOldest()
	}
	return had
}

// evictOldest gives the oldest reserved range back to the system. The caller
// holds the lock.
func evictOldest() {
	i, _ := find(mapped.quarantine[0])
	mapped.quarantined -= mapped.byStart[i].span
	mapped.quarantine = slices.Delete(mapped.quarantine, 0, 1)
	unmapAt(i)
}

// unmapAt unmaps the i-th mapping and forgets it. The caller holds the lock.
func unmapAt(i int) {
	mustUnmap(mapped.byStart[i].start, mapped.byStart[i].span)
	mapped.byStart = slices.Delete(mapped.byStart, i, i+1)
}

// find returns the index of the recorded mapping that holds addr, if any. The
// caller holds the lock.
func find(addr uintptr) (int, bool) {
	i, found := slices.BinarySearchFunc(mapped.byStart, addr, byStart)
	switch {
	case found:
		return i, true
	case i > 0 && addr-uintptr(mapped.byStart[i-1].start) < mapped.byStart[i-1].span:
		return i - 1, true
	}
	return 0, false
}

func byStart(b buffer, addr uintptr) int { return cmp.Compare(uintptr(b.start), addr) }

func mustUnmap(p unsafe.Pointer, length uintptr) {
	if err := unix.MunmapPtr(p, length); err != nil {
		panic("bigbuf: munmap: " + err.Error())
	}
}
