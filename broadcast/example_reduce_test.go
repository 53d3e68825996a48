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

func ExampleSoftmax() {
	// Two rows of logits, a softmax per row (the last axis).
	logits := []float32{
		1, 2, 3,
		1000, 1000, 1000, // exp(1000) overflows; the maximum is subtracted first
	}
	probs := make([]float32, 6)
	if err := broadcast.Softmax(probs, logits, broadcast.Shape{2, 3}, -1); err != nil {
		panic(err)
	}
	fmt.Printf("%.4f\n", probs)
	// Output:
	// [0.0900 0.2447 0.6652 0.3333 0.3333 0.3333]
}

func ExampleLogSumExp() {
	x := []float64{-1000, -1000, 0, 0}
	lse := make([]float64, 2)
	if err := broadcast.LogSumExp(lse, broadcast.Shape{2}, x, broadcast.Shape{2, 2}, 1); err != nil {
		panic(err)
	}
	fmt.Printf("%.6f\n", lse) // -1000 + log 2, and log 2
	// Output:
	// [-999.306853 0.693147]
}

func ExampleReduceStd() {
	// The per-channel mean and standard deviation of a 2 x 2 RGB image of
	// uint8 pixels (NumPy: img.mean(axis=(0, 1)), img.std(axis=(0, 1))).
	img := []uint8{
		10, 100, 200, 20, 100, 220,
		30, 100, 240, 40, 100, 250,
	}
	shape := broadcast.Shape{2, 2, 3}
	mean, std := make([]float32, 3), make([]float32, 3)
	if err := broadcast.ReduceMean(mean, broadcast.Shape{3}, img, shape, 0, 1); err != nil {
		panic(err)
	}
	if err := broadcast.ReduceStd(std, broadcast.Shape{3}, img, shape, 0, 1); err != nil {
		panic(err)
	}
	fmt.Println(mean, std)
	// Output:
	// [25 100 227.5] [11.18034 0 19.202864]
}

func ExampleReduceArgMax() {
	scores := []float32{
		0.1, 0.7, 0.2,
		0.5, 0.5, 0.0, // a tie: the first index
	}
	best := make([]int, 2)
	if err := broadcast.ReduceArgMax(best, broadcast.Shape{2}, scores, broadcast.Shape{2, 3}, 1); err != nil {
		panic(err)
	}
	fmt.Println(best)
	// Output:
	// [1 0]
}

func ExampleReduceCount() {
	mask := []bool{
		true, false, true,
		false, false, true,
	}
	perColumn := make([]int, 3)
	if err := broadcast.ReduceCount(perColumn, broadcast.Shape{3}, mask, broadcast.Shape{2, 3}, 0); err != nil {
		panic(err)
	}
	fmt.Println(perColumn)
	// Output:
	// [1 0 2]
}

func ExampleCumSum() {
	x := []int32{
		1, 2, 3,
		4, 5, 6,
	}
	down := make([]int32, 6)
	if err := broadcast.CumSum(down, x, broadcast.Shape{2, 3}, 0); err != nil {
		panic(err)
	}
	fmt.Println(down)
	// Output:
	// [1 2 3 5 7 9]
}
