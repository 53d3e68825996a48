package broadcast_test

import (
	"fmt"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
)

// a + b.T without copying b: the transposed view walks b by columns.
func ExampleApplyView() {
	a := broadcast.ViewOf([]float32{1, 2, 3, 4, 5, 6}, broadcast.Shape{2, 3})
	b := broadcast.ViewOf([]float32{10, 20, 30, 40, 50, 60}, broadcast.Shape{3, 2})
	data, shape := broadcast.MustNewOut[float32](a.Shape, b.Transposed().Shape)
	broadcast.MustApplyView(elem.OpAdd, broadcast.ViewOf(data, shape), a, b.Transposed())
	fmt.Println(shape, data)
	// Output: (2,3) [11 32 53 24 45 66]
}

// A column of a 3 x 4 matrix (stride 4) scaled in place, and a bias row
// added to its right 3 x 2 block: views of one array, no copies.
func ExampleView() {
	m := []float64{
		1, 2, 3, 4,
		5, 6, 7, 8,
		9, 10, 11, 12,
	}
	col := broadcast.View[float64]{Data: m[1:], Shape: broadcast.Shape{3}, Strides: []int{4}}
	broadcast.MustApplyView(elem.OpMul, col, col, broadcast.ViewOf([]float64{10}, broadcast.Shape{}))
	block := broadcast.View[float64]{Data: m[2:], Shape: broadcast.Shape{3, 2}, Strides: []int{4, 1}}
	broadcast.MustApplyView(elem.OpAdd, block, block, broadcast.ViewOf([]float64{0.5, -0.5}, broadcast.Shape{2}))
	fmt.Println(m)
	// Output: [1 20 3.5 3.5 5 60 7.5 7.5 9 100 11.5 11.5]
}

// A reversed dim is a negative stride; Data[0] stays the lowest element.
func ExampleView_reversed() {
	x := []int32{1, 2, 3, 4}
	rev := broadcast.View[int32]{Data: x, Shape: broadcast.Shape{4}, Strides: []int{-1}}
	out := make([]int32, 4)
	broadcast.MustApplyView(elem.OpSub, broadcast.ViewOf(out, broadcast.Shape{4}), broadcast.ViewOf(x, broadcast.Shape{4}), rev)
	fmt.Println(out)
	// Output: [-3 -1 1 3]
}
