package broadcast

import (
	"fmt"
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

// BenchmarkReduceSumShort times sums over short runs, where a call per
// output would dominate: rows of 3 (xyz points) and 2 (complex numbers)
// summed over the inner axis, the same points over the outer axis, a
// middle axis of 3 with inner runs of 2, and the plain Go loop over the
// rows for reference.
func BenchmarkReduceSumShort(b *testing.B) {
	b.Run("float32", benchReduceSumShort[float32])
	b.Run("float64", benchReduceSumShort[float64])
}

func benchReduceSumShort[T float32 | float64](b *testing.B) {
	const n = 1 << 20
	x := make([]T, 3*n+n/2*3*2)
	for i := range x {
		x[i] = T(i%97) + 0.5
	}
	out := make([]T, 3*n/2)
	cases := []struct {
		name   string
		dst    Shape
		aShape Shape
		axis   int
	}{
		{"1048576x3/axis1", S(n), S(n, 3), 1},
		{"1572864x2/axis1", S(3 * n / 2), S(3*n/2, 2), 1},
		{"1048576x3/axis0", S(3), S(n, 3), 0},
		{"524288x3x2/axis1", S(n/2, 2), S(n/2, 3, 2), 1},
	}
	for _, c := range cases {
		size, _ := c.aShape.Size()
		dstSize, _ := c.dst.Size()
		a, dst := x[:size], out[:dstSize]
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := ReduceSum(dst, c.dst, a, c.aShape, c.axis); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, run := range []int{3, 2} {
		rows := 3 * n / run
		b.Run(fmt.Sprintf("%dx%d/loop", rows, run), func(b *testing.B) {
			for b.Loop() {
				for r := range out[:rows] {
					var s T
					for _, v := range x[r*run:][:run] {
						s += v
					}
					out[r] = s
				}
			}
		})
	}
}
