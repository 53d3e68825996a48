package broadcast

import (
	"testing"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/bufplace"
)

// BenchmarkReduceSum times the row sums (axis 1) and column sums (axis 0)
// of a 1024 x 1024 float32 matrix beside a contiguous Add over the same
// input size (dst = a + b, 1M elements), the cost they should stay near.
func BenchmarkReduceSum(b *testing.B) {
	const n = 1024
	bufs := bufplace.Three[float32](n * n)
	x, y, dst := bufs[0], bufs[1], bufs[2]
	for i := range x {
		x[i], y[i] = float32(i%97)+1.5, float32(i%89)+0.25
	}
	out := make([]float32, n)
	b.Run("rows", func(b *testing.B) {
		for b.Loop() {
			if err := ReduceSum(out, Shape{n}, x, Shape{n, n}, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cols", func(b *testing.B) {
		for b.Loop() {
			if err := ReduceSum(out, Shape{n}, x, Shape{n, n}, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("add", func(b *testing.B) {
		for b.Loop() {
			elem.Add(dst, x, y)
		}
	})
}
