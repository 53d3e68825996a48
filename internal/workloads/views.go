package workloads

import (
	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	"github.com/simdkit/elem/internal/bufplace"
)

// View is one strided-view workload (float32) with its baseline: the
// contiguous op that produces the same number of elements.
type View struct {
	Name     string
	Baseline string // what the view is compared with
	// New allocates the buffers and returns one run of the view, one run
	// of the baseline and the number of output elements of each.
	New func() (view func() error, baseline func(), n int)
}

// Views are the workloads of the views issue: a + b.T for 1024 x 1024 (b
// a transposed view) against a contiguous Add, a column view scaled in
// place (1024 elements, stride 1024) against a contiguous Mul of 1024, and
// a bias row added in place to a 512 x 512 sub-view of a 1024 x 1024
// matrix against the contiguous row broadcast (512, 512) + (512).
var Views = []View{
	{"a+b.T", "contiguous add", func() (func() error, func(), int) {
		const n = 1024
		bufs := bufplace.Three[float32](n * n)
		fill(bufs[0], bufs[1])
		a := broadcast.ViewOf(bufs[0], broadcast.Shape{n, n})
		bt := broadcast.ViewOf(bufs[1], broadcast.Shape{n, n}).Transposed()
		dst := broadcast.ViewOf(bufs[2], broadcast.Shape{n, n})
		return func() error { return broadcast.ApplyView(elem.OpAdd, dst, a, bt) },
			func() { elem.Add(bufs[2], bufs[0], bufs[1]) }, n * n
	}},
	{"column", "contiguous mul", func() (func() error, func(), int) {
		const n = 1024
		bufs := bufplace.Sized[float32]([3]int{n * n, 1, 1})
		fill(bufs[0], bufs[1])
		col := broadcast.View[float32]{Data: bufs[0][3 : 3+(n-1)*n+1], Shape: broadcast.Shape{n}, Strides: []int{n}}
		s := broadcast.ViewOf(bufs[1], broadcast.Shape{})
		base, _ := Contiguous[float32](elem.OpMul, n)
		return func() error { return broadcast.ApplyView(elem.OpMul, col, col, s) }, base, n
	}},
	{"bias-subview", "contiguous row broadcast", func() (func() error, func(), int) {
		const n, m = 1024, 512
		bufs := bufplace.Sized[float32]([3]int{n * n, m, 1})
		fill(bufs[0], bufs[1])
		sub := broadcast.View[float32]{Data: bufs[0][100*n+200:], Shape: broadcast.Shape{m, m}, Strides: []int{n, 1}}
		bias := broadcast.ViewOf(bufs[1], broadcast.Shape{m})
		r, err := New[float32](Broadcast{"R-512", elem.OpAdd, broadcast.Shape{m, m}, broadcast.Shape{m}})
		if err != nil {
			panic(err)
		}
		return func() error { return broadcast.ApplyView(elem.OpAdd, sub, sub, bias) }, func() { _ = r.Run() }, m * m
	}},
}

// fill puts ordinary values into a and b.
func fill(a, b []float32) {
	for i := range a {
		a[i] = float32(i%97) + 1.5
	}
	for i := range b {
		b[i] = float32(i%89) + 0.25
	}
}
