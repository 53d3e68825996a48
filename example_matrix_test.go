package elem_test

import (
	"fmt"

	"github.com/simdkit/elem"
)

// A bias row added to every row of a 2 x 3 batch: the call says which
// operand broadcasts, so no stride can be swapped.
func ExampleAddRow() {
	batch := elem.Dense(2, 3, []float32{10, 20, 30, 13, 23, 33})
	elem.AddRow(batch, batch, []float32{1, 2, 3}) // in place
	fmt.Println(batch.Data)
	// Output: [11 22 33 14 25 36]
}

// A column broadcast on the right 2 x 2 block of a 2 x 4 matrix (a
// sub-matrix: Stride 4), in place.
func ExampleApplyCol() {
	m := elem.Dense(2, 4, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	right := m.Slice(0, 2, 2, 4)
	elem.ApplyCol(elem.OpMul, right, right, []float64{10, 100})
	fmt.Println(m.Data)
	// Output: [1 2 30 40 5 6 700 800]
}

// The outer sum of a column and a row.
func ExampleApplyOuter() {
	dst := elem.Dense(2, 3, make([]int32, 6))
	elem.ApplyOuter(elem.OpAdd, dst, []int32{100, 200}, []int32{1, 2, 3})
	fmt.Println(dst.Data)
	// Output: [101 102 103 201 202 203]
}

func ExampleApplyScalar2D() {
	m := elem.Dense(2, 2, []float32{1, 2, 3, 4})
	elem.ApplyScalar2D(elem.OpMax, m, m, 2.5)
	fmt.Println(m.Data)
	// Output: [2.5 2.5 3 4]
}
