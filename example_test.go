package elem_test

import (
	"fmt"
	"math"

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
	defer elem.SetImplementation(elem.Auto) // back to the automatic choice by size
	if err := elem.SetImplementation("generic"); err != nil {
		fmt.Println(err)
	}
	fmt.Println(elem.Implementation())
	// Output: generic
}

func ExampleConvert() {
	pixels := []uint8{0, 128, 255}
	f := make([]float32, len(pixels))
	elem.Convert(f, pixels)
	elem.MulScalar(f, f, 1.5)
	back := make([]uint8, len(f))
	elem.Convert(back, f) // 382.5 saturates at 255
	fmt.Println(f, back)
	// Output: [0 192 382.5] [0 192 255]
}

func ExampleSqrt() {
	x := []float64{4, 2, -1}
	elem.Sqrt(x, x)
	fmt.Println(x)
	// Output: [2 1.4142135623730951 NaN]
}

func ExampleRound() {
	x := []float32{-2.5, -0.5, 0.5, 1.5, 2.5}
	even := make([]float32, len(x))
	elem.Round(x, x) // half away from zero, as math.Round
	elem.RoundToEven(even, []float32{-2.5, -0.5, 0.5, 1.5, 2.5})
	fmt.Println(x, even)
	// Output: [-3 -1 1 2 3] [-2 -0 0 2 2]
}

func ExampleMulScalarAdd() {
	// y = 2x + y with one rounding per element (BLAS axpy).
	x := []float64{1, 2, 3}
	y := []float64{10, 20, 30}
	elem.MulScalarAdd(y, x, 2, y)
	fmt.Println(y)
	// Output: [12 24 36]
}

func ExampleFMA() {
	// 0.1*10 - 1 is 5.551115123125783e-17 with one rounding, 0 with two.
	dst := make([]float64, 1)
	elem.FMA(dst, []float64{0.1}, []float64{10}, []float64{-1})
	fmt.Println(dst[0])
	// Output: 5.551115123125783e-17
}

func ExampleClamp() {
	x := []float32{-3, 0.5, 9}
	elem.Clamp(x, x, 0, 1)
	fmt.Println(x)
	// Output: [0 0.5 1]
}

func ExampleLt() {
	a := []float64{1, 5, nanf(), 2}
	mask := make([]bool, len(a))
	elem.LtScalar(mask, a, 3) // false for NaN, as Go's <
	fmt.Println(mask)
	// Output: [true false false true]
}

func ExampleSelect() {
	// ReLU: x where x > 0, else 0.
	x := []float32{-1, 2, -3, 4}
	pos := make([]bool, len(x))
	elem.GtScalar(pos, x, 0)
	elem.SelectScalar(x, pos, x, 0)
	fmt.Println(x)
	// Output: [0 2 0 4]
}

func ExampleShr() {
	signed := []int8{-128, -1, 64}
	elem.Shr(signed, signed, 1) // arithmetic for signed types
	unsigned := []uint8{128, 255, 64}
	elem.Shr(unsigned, unsigned, 9) // at or beyond the width: 0
	fmt.Println(signed, unsigned)
	// Output: [-64 -1 32] [0 0 0]
}

func ExampleAndNot() {
	flags := []uint16{0b1111, 0b1010}
	elem.AndNotScalar(flags, flags, 0b0011) // clear the low two bits
	fmt.Println(flags)
	// Output: [12 8]
}

func ExampleApplyUnary() {
	op := elem.OpFloor // chosen at run time
	x := []float64{-1.5, 1.5}
	elem.ApplyUnary(op, x, x)
	fmt.Println(op, x)
	// Output: floor [-2 1]
}

// The math functions: within 1 ulp of the exact value, the same bits on
// every CPU, and the special values of Go's math (Log(0) = -Inf, Exp(-Inf)
// = 0, NaN in, NaN out).
func ExampleExp() {
	x := []float64{-math.Inf(1), -1, 0, 1, 709.7}
	e, l := make([]float64, len(x)), make([]float64, len(x))
	elem.Exp(e, x)
	elem.Log(l, e)
	fmt.Println(e)
	fmt.Println(l)
	// Output:
	// [0 0.36787944117144233 1 2.718281828459045 1.6549840276802644e+308]
	// [-Inf -1 0 1 709.7]
}

// Sin and Cos reduce an argument of any size exactly: 1e22 radians is a
// whole number of turns plus what they compute from.
func ExampleSin() {
	x := []float64{0, math.Pi / 6, 1e22, math.Inf(1)}
	s, c := make([]float64, len(x)), make([]float64, len(x))
	elem.Sin(s, x)
	elem.Cos(c, x)
	fmt.Println(s)
	fmt.Println(c)
	// Output:
	// [0 0.5 -0.8522008497671888 NaN]
	// [1 0.8660254037844386 0.523214785395139 NaN]
}

// Pow follows math.Pow's special cases and keeps its accuracy for large
// exponents.
func ExamplePow() {
	x := []float64{2, -8, -2, 0, 1.0000001}
	y := []float64{0.5, 1.0 / 3, 3, -1, 1e9}
	d := make([]float64, len(x))
	elem.Pow(d, x, y)
	fmt.Println(d)
	elem.PowScalar(d[:1], x[:1], 10)
	fmt.Println(d[0])
	// Output:
	// [1.4142135623730951 NaN -8 +Inf 2.6881038582144647e+43]
	// 1024
}
