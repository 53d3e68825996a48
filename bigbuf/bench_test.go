package bigbuf_test

import (
	"flag"
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/bigbuf"
	"github.com/simdkit/elem/internal/bufplace"
)

var benchHuge = flag.Bool("elem.huge", false, "also benchmark n = 16777216")

// BenchmarkAdd times elem.Add on float32 buffers from make and from
// bigbuf.Make, at sizes far beyond the last-level cache. Each of a, b and dst
// is its own allocation, placed 0, 1024 and 3072 bytes after a page boundary
// inside it (bufplace.ThreeFrom), and written once before timing, so that
// page faults are not timed.
func BenchmarkAdd(b *testing.B) {
	sizes := []int{1 << 22}
	if *benchHuge {
		sizes = append(sizes, 1<<24)
	}
	allocators := []struct {
		name  string
		alloc func(int) []float32
		free  func([]float32)
	}{
		{"make", func(n int) []float32 { return make([]float32, n) }, func([]float32) {}},
		{"bigbuf", bigbuf.Make[float32], bigbuf.Free[float32]},
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for _, al := range allocators {
				b.Run("alloc="+al.name, func(b *testing.B) {
					bufs, allocs := bufplace.ThreeFrom(n, al.alloc)
					defer func() {
						for _, s := range allocs {
							al.free(s)
						}
					}()
					x, y, dst := bufs[0], bufs[1], bufs[2]
					for i := range x {
						x[i], y[i], dst[i] = float32(i%97)+1.5, float32(i%89)+0.25, 0
					}
					b.SetBytes(int64(3 * 4 * n))
					for b.Loop() {
						elem.Add(dst, x, y)
					}
				})
			}
		})
	}
}

// BenchmarkFirstTouch times getting a 64 MiB float32 buffer of fresh memory
// and writing every element once, from make and from bigbuf.Make (with Free):
// mostly page faults, 4 KiB or 2 MiB at a time, with the kernel zeroing the
// pages. Between iterations, untimed, debug.FreeOSMemory returns the heap to
// the system, so that make cannot reuse memory that is already mapped.
func BenchmarkFirstTouch(b *testing.B) {
	const n = 1 << 24
	for _, al := range []struct {
		name  string
		alloc func(int) []float32
		free  func([]float32)
	}{
		{"make", func(n int) []float32 { return make([]float32, n) }, func([]float32) {}},
		{"bigbuf", bigbuf.Make[float32], bigbuf.Free[float32]},
	} {
		b.Run("alloc="+al.name, func(b *testing.B) {
			b.SetBytes(4 * n)
			for b.Loop() {
				s := al.alloc(n)
				for i := range s {
					s[i] = 1
				}
				al.free(s)
				b.StopTimer()
				debug.FreeOSMemory()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkMakeFree times Make and Free of a buffer that is never touched: the
// bookkeeping and system calls alone, which is what Free's quarantine adds to
// (a buffer that is written costs page faults on top, see BenchmarkFirstTouch).
func BenchmarkMakeFree(b *testing.B) {
	for _, n := range []int{bigbuf.Threshold / 4, 1 << 24} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				bigbuf.Free(bigbuf.Make[float32](n))
			}
		})
	}
}
