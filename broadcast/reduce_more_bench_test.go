package broadcast

import (
	"fmt"
	"testing"

	"github.com/simdkit/elem"
)

// BenchmarkAxisReductions times the axis reductions of issue 24's speed
// table on float32: (1024, 1024) over each axis and (1048576, 3) over its
// short axis, beside a contiguous elem.Sum of the same number of values
// (the "sum" rows), and the softmax family beside one elem.Exp of the
// same data (the "exp" rows).
func BenchmarkAxisReductions(b *testing.B) {
	shapes := []struct {
		shape Shape
		axis  int
	}{{S(1024, 1024), 0}, {S(1024, 1024), 1}, {S(1048576, 3), 1}, {S(32, 1000), 1}}
	for _, c := range shapes {
		n, _ := c.shape.Size()
		a := make([]float32, n)
		for i := range a {
			a[i] = float32(i%1013)*0.01 - 3
		}
		out := c.shape.Clone()
		out[c.axis] = 1
		m, _ := out.Size()
		dst, idx := make([]float32, m), make([]int, m)
		name := fmt.Sprintf("%dx%d/axis%d", c.shape[0], c.shape[1], c.axis)
		run := func(what string, f func() error) {
			b.Run(name+"/"+what, func(b *testing.B) {
				b.SetBytes(int64(4 * n))
				for b.Loop() {
					if err := f(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		var sink float32
		run("sum", func() error { sink += elem.Sum(a); return nil })
		run("ReduceSum", func() error { return ReduceSum(dst, out, a, c.shape, c.axis) })
		run("Max", func() error { return ReduceMax(dst, out, a, c.shape, c.axis) })
		run("Mean", func() error { return ReduceMean(dst, out, a, c.shape, c.axis) })
		run("ArgMax", func() error { return ReduceArgMax(idx, out, a, c.shape, c.axis) })
		run("Var", func() error { return ReduceVar(dst, out, a, c.shape, c.axis) })
		run("Std", func() error { return ReduceStd(dst, out, a, c.shape, c.axis) })
		full := make([]float32, n)
		run("exp", func() error { elem.Exp(full, a); return nil })
		run("Softmax", func() error { return Softmax(full, a, c.shape, c.axis) })
		run("LogSoftmax", func() error { return LogSoftmax(full, a, c.shape, c.axis) })
		run("LogSumExp", func() error { return LogSumExp(dst, out, a, c.shape, c.axis) })
		_ = sink
	}
}
