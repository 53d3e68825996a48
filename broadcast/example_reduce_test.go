package broadcast_test

import (
	"fmt"

	"github.com/simdkit/elem/broadcast"
)

func ExampleReduceSum() {
	// A 2 x 3 matrix: row sums (axis 1) and column sums (axis 0), the
	// first with keepdims (shape (2,1)), the second without (shape (3)).
	m := []float32{
		1, 2, 3,
		4, 5, 6,
	}
	rows := make([]float32, 2)
	if err := broadcast.ReduceSum(rows, broadcast.Shape{2, 1}, m, broadcast.Shape{2, 3}, 1); err != nil {
		panic(err)
	}
	cols := make([]float32, 3)
	if err := broadcast.ReduceSum(cols, broadcast.Shape{3}, m, broadcast.Shape{2, 3}, 0); err != nil {
		panic(err)
	}
	fmt.Println(rows, cols)

	err := broadcast.ReduceSum(cols, broadcast.Shape{2}, m, broadcast.Shape{2, 3}, 0)
	fmt.Println(err)
	// Output:
	// [6 15] [5 7 9]
	// broadcast: dst shape (2) cannot hold the sum of a of shape (2,3) over axes [0]: it must be (1,3) (keepdims) or (3)
}
