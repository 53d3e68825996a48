package elem_test

import (
	"fmt"

	"github.com/simdkit/elem"
)

func ExampleAdd() {
	a := []float32{1, 2, 3, 4}
	b := []float32{10, 20, 30, 40}
	dst := make([]float32, len(a))
	elem.Add(dst, a, b)
	fmt.Println(dst)
	// Output: [11 22 33 44]
}

func ExampleMulScalar() {
	volts := []float64{0.5, 1.25, -2}
	elem.MulScalar(volts, volts, 1000) // in place: dst may be a
	fmt.Println(volts)
	// Output: [500 1250 -2000]
}

func ExampleScalarSub() {
	x := []float32{0.25, 0.5, 1}
	elem.ScalarSub(x, 1, x) // 1 - x
	fmt.Println(x)
	// Output: [0.75 0.5 0]
}

func ExampleMax() {
	// Go's max: NaN wins, and +0 is above -0.
	negZero := float32(0) * -1
	dst := make([]float32, 2)
	elem.Max(dst, []float32{negZero, 3}, []float32{0, float32(nanf())})
	fmt.Println(dst)
	// Output: [0 NaN]
}

func nanf() float64 { var z float64; return z / z }

func ExampleApply() {
	op := elem.OpDiv // chosen at run time
	dst := make([]float64, 3)
	elem.Apply(op, dst, []float64{1, 1, 0}, []float64{4, 0, 0})
	fmt.Println(op, dst)
	// Output: div [0.25 +Inf NaN]
}

func ExampleApply2D() {
	// Add a bias row to every row of a 2 x 3 matrix stored with stride 4
	// (a gonum-style view): one call, the row loop runs in the kernel.
	m := []float32{
		1, 2, 3, -1,
		4, 5, 6, -1,
	}
	bias := []float32{10, 20, 30}
	elem.Apply2D(elem.OpAdd, 2, 3, m, 4, m, 4, 1, bias, 0, 1)
	fmt.Println(m)
	// Output: [11 22 33 -1 14 25 36 -1]
}

func ExampleSetImplementation() {
	defer elem.SetImplementation(elem.Implementation()) // restore the default afterwards
	if err := elem.SetImplementation("generic"); err != nil {
		fmt.Println(err)
	}
	fmt.Println(elem.Implementation())
	// Output: generic
}
