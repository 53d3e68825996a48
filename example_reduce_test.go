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
