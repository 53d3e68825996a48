package elem

import (
	"fmt"
	"testing"

	"github.com/simdkit/elem/internal/bufplace"
	"github.com/simdkit/elem/internal/kernel"
)

// sink keeps the benchmarks' results alive.
var sink float64

// BenchmarkReduce times Sum, Dot, MaxOf and ArgMax
// (BenchmarkReduce/type/call/n=N/impl) on every element type against "loop", the plain Go loop
// a user would write instead: s += a[i], s += a[i]*b[i], m = max(m, a[i]),
// and if a[i] > best { best, at = a[i], i }. Buffers: a and b start 0 and
// 1024 bytes after a page boundary (package bufplace).
func BenchmarkReduce(b *testing.B) {
	b.Run("float32", benchReduce[float32])
	b.Run("float64", benchReduce[float64])
	b.Run("int8", benchReduce[int8])
	b.Run("int16", benchReduce[int16])
	b.Run("int32", benchReduce[int32])
	b.Run("int64", benchReduce[int64])
	b.Run("uint8", benchReduce[uint8])
	b.Run("uint16", benchReduce[uint16])
	b.Run("uint32", benchReduce[uint32])
	b.Run("uint64", benchReduce[uint64])
}

// reduceBench is one timed reduction: the library call and its plain loop.
type reduceBench[T Number] struct {
	name       string
	call, loop func(a, b []T) float64
}

func reduceBenches[T Number]() []reduceBench[T] {
	return []reduceBench[T]{
		{"Sum", func(a, _ []T) float64 { return float64(Sum(a)) }, func(a, _ []T) float64 {
			var s T
			for _, x := range a {
				s += x
			}
			return float64(s)
		}},
		{"Dot", func(a, b []T) float64 { return float64(Dot(a, b)) }, func(a, b []T) float64 {
			var s T
			b = b[:len(a)]
			for i, x := range a {
				s += x * b[i]
			}
			return float64(s)
		}},
		{"MaxOf", func(a, _ []T) float64 { return float64(MaxOf(a)) }, func(a, _ []T) float64 {
			m := a[0]
			for _, x := range a[1:] {
				m = max(m, x)
			}
			return float64(m)
		}},
		{"ArgMax", func(a, _ []T) float64 { return float64(ArgMax(a)) }, func(a, _ []T) float64 {
			best, at := a[0], 0
			for i, x := range a {
				if x > best {
					best, at = x, i
				}
			}
			return float64(at)
		}},
	}
}

func benchReduce[T Number](b *testing.B) {
	for _, rb := range reduceBenches[T]() {
		b.Run(rb.name, func(b *testing.B) {
			for _, n := range []int{1000, 16000, 262144} {
				bufs := bufplace.Three[T](n)
				x, y := bufs[0], bufs[1]
				for i := range x {
					x[i], y[i] = T(float64(i%97)+1.5), T(float64(i%89)+0.25) // integers truncate
				}
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
					b.Run("loop", func(b *testing.B) {
						for b.Loop() {
							sink += rb.loop(x, y)
						}
					})
					eachImplementation(b, func(b *testing.B) {
						for b.Loop() {
							sink += rb.call(x, y)
						}
					})
				})
			}
		})
	}
}

// eachImplementation runs f as a sub-benchmark per implementation, with
// that implementation in use.
func eachImplementation(b *testing.B, f func(b *testing.B)) {
	defer kernel.Restore(kernel.Save())
	for _, impl := range Implementations() {
		b.Run(impl, func(b *testing.B) {
			if err := SetImplementation(impl); err != nil {
				b.Fatal(err)
			}
			f(b)
		})
	}
}
