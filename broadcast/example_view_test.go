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

// An image's HWC pixels (2 x 3 pixels of R, G, B) copied into planes, CHW:
// the source seen in the planes' order is a view with permuted strides.
func ExampleCopyView() {
	const h, w, c = 2, 3, 3
	hwc := []uint8{
		10, 11, 12, 20, 21, 22, 30, 31, 32,
		40, 41, 42, 50, 51, 52, 60, 61, 62,
	}
	src := broadcast.View[uint8]{Data: hwc, Shape: broadcast.Shape{c, h, w}, Strides: []int{1, w * c, c}}
	chw := make([]uint8, c*h*w)
	if err := broadcast.CopyView(broadcast.ViewOf(chw, broadcast.Shape{c, h, w}), src); err != nil {
		panic(err)
	}
	fmt.Println(chw)
	// Output: [10 20 30 40 50 60 11 21 31 41 51 61 12 22 32 42 52 62]
}

// The border of a 4 x 5 matrix set to -1: its first and last columns, and
// its first and last rows, each a view of the one array.
func ExampleFillView() {
	m := make([]int16, 4*5)
	cols := broadcast.View[int16]{Data: m, Shape: broadcast.Shape{4, 2}, Strides: []int{5, 4}}
	rows := broadcast.View[int16]{Data: m, Shape: broadcast.Shape{2, 5}, Strides: []int{15, 1}}
	for _, v := range []broadcast.View[int16]{cols, rows} {
		if err := broadcast.FillView(v, -1); err != nil {
			panic(err)
		}
	}
	for r := range 4 {
		fmt.Println(m[r*5 : r*5+5])
	}
	// Output:
	// [-1 -1 -1 -1 -1]
	// [-1 0 0 0 -1]
	// [-1 0 0 0 -1]
	// [-1 -1 -1 -1 -1]
}

// Which entries of a matrix exceed their column's threshold, written as
// the mask of the transposed matrix (a bool view with swapped strides).
func ExampleCompareView() {
	x := broadcast.ViewOf([]float32{1, 5, 3, 8, 2, 9}, broadcast.Shape{2, 3})
	limit := broadcast.ViewOf([]float32{4, 4, 8}, broadcast.Shape{3})
	maskT := make([]bool, 6) // 3 x 2: maskT[j][i] = x[i][j] > limit[j]
	mask := broadcast.View[bool]{Data: maskT, Shape: broadcast.Shape{2, 3}, Strides: []int{1, 2}}
	if err := broadcast.CompareView(elem.OpGt, mask, x, limit); err != nil {
		panic(err)
	}
	fmt.Println(maskT)
	// Output: [false true true false false true]
}
