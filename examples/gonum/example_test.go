package gonum_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	elemgonum "github.com/simdkit/elem/examples/gonum"
)

// A bias row added in place to the 2 x 3 block in the middle of a 4 x 5
// matrix: the block is a sub-view (stride 5), not a copy.
func Example_biasOnSubView() {
	d := mat.NewDense(4, 5, nil)
	block := d.Slice(1, 3, 1, 4).(*mat.Dense)
	m := elemgonum.Matrix(block)
	elem.AddRow(m, m, []float64{1, 2, 3})
	fmt.Printf("%v\n", mat.Formatted(d))
	// Output:
	// ⎡0  0  0  0  0⎤
	// ⎢0  1  2  3  0⎥
	// ⎢0  1  2  3  0⎥
	// ⎣0  0  0  0  0⎦
}

// a + b.T() with b transposed as a view.
func Example_addTransposed() {
	a := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	b := mat.NewDense(3, 2, []float64{10, 40, 20, 50, 30, 60})
	sum := mat.NewDense(2, 3, nil)
	av, _ := elemgonum.View(a)
	bt, _ := elemgonum.View(b.T())
	dst, _ := elemgonum.View(sum)
	if err := broadcast.ApplyView(elem.OpAdd, dst, av, bt); err != nil {
		panic(err)
	}
	fmt.Printf("%v\n", mat.Formatted(sum))
	// Output:
	// ⎡11  22  33⎤
	// ⎣44  55  66⎦
}

// A column (ColView: a vector with the matrix's stride) scaled in place.
func Example_scaleColumn() {
	d := mat.NewDense(3, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9})
	col, _ := elemgonum.View(d.ColView(1))
	ten := broadcast.ViewOf([]float64{10}, broadcast.Shape{})
	if err := broadcast.ApplyView(elem.OpMul, col, col, ten); err != nil {
		panic(err)
	}
	fmt.Printf("%v\n", mat.Formatted(d))
	// Output:
	// ⎡ 1  20   3⎤
	// ⎢ 4  50   6⎥
	// ⎣ 7  80   9⎦
}
