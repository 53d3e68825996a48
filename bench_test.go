package elem

import (
	"flag"
	"fmt"
	"math"
	"testing"
	"unsafe"

	"github.com/simdkit/elem/internal/bufplace"
)

var benchHuge = flag.Bool("elem.huge", false, "also benchmark n = 16777216 (DRAM-sized)")

func benchSizes() []int {
	sizes := []int{8, 64, 1000, 16000, 262144}
	if *benchHuge {
		sizes = append(sizes, 16777216)
	}
	return sizes
}

// BenchmarkKernel times every op x type x kind x size through the public
// calls, for every implementation and for "loop", the plain Go loop a user
// would write. Buffers: a, b and dst start 0, 1024 and 3072 bytes after a page
// boundary (package bufplace).
func BenchmarkKernel(b *testing.B) {
	for _, op := range Ops() {
		b.Run(op.String(), func(b *testing.B) {
			b.Run("float32", func(b *testing.B) { benchKernels[float32](b, op) })
			b.Run("float64", func(b *testing.B) { benchKernels[float64](b, op) })
		})
	}
}

func benchKernels[T Float](b *testing.B, op Op) {
	for _, k := range kinds {
		b.Run(k.String(), func(b *testing.B) {
			for _, n := range benchSizes() {
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchKernel[T](b, op, k, n) })
			}
		})
	}
}

func benchKernel[T Float](b *testing.B, op Op, k kind, n int) {
	bufs := bufplace.Three[T](n)
	a, y, dst := bufs[0], bufs[1], bufs[2]
	for i := range a {
		a[i], y[i] = T(i%97)+1.5, T(i%89)+0.25
	}
	s := y[0]
	moved := k.bytesMoved(n, int(unsafe.Sizeof(T(0))))
	call := func() {
		switch k {
		case kindVV:
			Apply(op, dst, a, y)
		case kindVS:
			ApplyScalar(op, dst, a, s)
		default:
			ScalarApply(op, dst, s, a)
		}
	}
	b.Run("loop", func(b *testing.B) {
		b.SetBytes(moved)
		for b.Loop() {
			plainLoop(k, op, dst, a, y, s)
		}
	})
	prev := Implementation()
	defer SetImplementation(prev)
	for _, impl := range Implementations() {
		b.Run(impl, func(b *testing.B) {
			if err := SetImplementation(impl); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(moved)
			for b.Loop() {
				call()
			}
		})
	}
}

// bytesMoved is what a call of kind k on n elements of size bytes reads and
// writes: three slices for vv, two for vs and sv.
func (k kind) bytesMoved(n, size int) int64 {
	if k == kindVV {
		return int64(3 * n * size)
	}
	return int64(2 * n * size)
}

// plainLoop is the loop a user writes instead of calling elem.
func plainLoop[T Float](k kind, op Op, dst, a, y []T, s T) {
	switch k {
	case kindVV:
		vvRow(op, dst, a, y)
	case kindVS:
		vsRow(op, dst, a, s)
	default:
		svRow(op, dst, &s, a)
	}
}

// BenchmarkAdd compares Add on float32s with the same loop written inline
// in the caller, the plain Go a user would write, at the sizes: at
// n = 8 a call's overhead shows most.
func BenchmarkAdd(b *testing.B) {
	for _, n := range []int{8, 1000, 16000, 262144} {
		bufs := bufplace.Three[float32](n)
		a, y, dst := bufs[0], bufs[1], bufs[2]
		for i := range a {
			a[i], y[i], dst[i] = float32(i%97)+1.5, float32(i%89)+0.25, 1
		}
		b.Run(fmt.Sprintf("n=%d/loop", n), func(b *testing.B) {
			for b.Loop() {
				for i := range dst {
					dst[i] = a[i] + y[i]
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/Add", n), func(b *testing.B) {
			for b.Loop() {
				Add(dst, a, y)
			}
		})
	}
}

// BenchmarkStream compares ordinary and non-temporal stores for float32 Add
// and AddScalar from L2-sized to DRAM-sized outputs, the measurement behind
// streamMinBytes. It runs with -elem.huge only.
func BenchmarkStream(b *testing.B) {
	if !*benchHuge {
		b.Skip("needs -elem.huge")
	}
	if !hasStreaming {
		b.Skip("no streaming kernels on this architecture")
	}
	prev := streamMinBytes
	defer func() { streamMinBytes = prev }()
	for _, n := range []int{1 << 18, 1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24} {
		bufs := bufplace.Three[float32](n)
		a, y, dst := bufs[0], bufs[1], bufs[2]
		for i := range a {
			// Written, so that no page is the kernel's shared zero page.
			a[i], y[i], dst[i] = float32(i%97)+1.5, float32(i%89)+0.25, 1
		}
		for _, k := range []kind{kindVV, kindVS} {
			for _, mode := range []struct {
				name     string
				minBytes int
			}{{"cached", math.MaxInt}, {"stream", 0}} {
				b.Run(fmt.Sprintf("%s/n=%d/%s", k, n, mode.name), func(b *testing.B) {
					streamMinBytes = mode.minBytes
					b.SetBytes(k.bytesMoved(n, 4))
					for b.Loop() {
						if k == kindVV {
							Add(dst, a, y)
						} else {
							AddScalar(dst, a, 1.5)
						}
					}
				})
			}
		}
	}
}
