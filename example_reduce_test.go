package elem_test

import (
	"fmt"

	"github.com/simdkit/elem"
)

func ExampleSum() {
	// A sum in the canonical order: the same bits on every CPU, and here
	// closer to the exact 16777224 than a left-to-right loop, which loses
	// every 1 against 2^24 (float32 has 24 bits). The ones sit in their own
	// accumulators, and most are added to one another before they meet 2^24.
	a := []float32{1 << 24, 1, 1, 1, 1, 1, 1, 1, 1}
	var loop float32
	for _, x := range a {
		loop += x
	}
	fmt.Println(elem.Sum(a), loop)
	fmt.Println(elem.Sum([]float64{}))
	// Output:
	// 1.6777222e+07 1.6777216e+07
	// 0
}

func ExampleSum_integers() {
	// Integer sums wrap around in T as Go's + does: exactly the plain
	// loop's result, whatever the order (wrap-around addition is
	// associative).
	px := []uint8{200, 100, 7}
	fmt.Println(elem.Sum(px), elem.Sum([]int32{1 << 30, 1 << 30, 5}))
	fmt.Println(elem.Dot([]int16{300, 2}, []int16{200, 3}), elem.ArgMax([]int64{-5, 9, 9}))
	// Output:
	// 51 -2147483643
	// -5530 1
}

func ExampleDot() {
	a := []float64{1, 2, 3}
	b := []float64{4, 5, 6}
	fmt.Println(elem.Dot(a, b), elem.SumSq(a))
	// Output:
	// 32 14
}

func ExampleArgMax() {
	a := []float32{3, 7, 1, 7}
	fmt.Println(elem.ArgMax(a), elem.MaxOf(a)) // the first index of the greatest
	fmt.Println(elem.ArgMin(a), elem.MinOf(a))
	// Output:
	// 1 7
	// 2 1
}

func ExampleNorm2() {
	// Squaring 1e200 overflows float64; Norm2 does not.
	fmt.Println(elem.Norm2([]float64{1e200, 1e200, 3e200}))
	fmt.Println(elem.Norm1([]float32{3, -4}), elem.Norm2([]float32{3, -4}), elem.NormInf([]float32{3, -4}))
	fmt.Println(elem.Distance([]float64{1, 2}, []float64{4, 6}, 2))
	// Output:
	// 3.3166247903554e+200
	// 7 5 4
	// 5
}

func ExampleCount() {
	x := []float32{0.2, 0.9, 0.7, 0.1}
	above := make([]bool, len(x))
	elem.GtScalar(above, x, 0.5)
	fmt.Println(elem.Count(above), elem.Any(above), elem.All(above))
	// Output:
	// 2 true false
}

func ExampleCumSum() {
	x := []float64{1, 2, 3, 4}
	elem.CumSum(x, x) // in place
	fmt.Println(x)
	// Output:
	// [1 3 6 10]
}
