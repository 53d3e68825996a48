package expr_test

import (
	"fmt"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/expr"
)

// Normalisation, (x - mean) / std, over 2 x 4 values with the mean and the
// standard deviation bound at run time: one pass over x instead of two.
func Example_normalise() {
	root, err := expr.Parse[float32]("(x - mean) / std", map[string][]int{"x": {2, 4}})
	if err != nil {
		panic(err)
	}
	p, err := expr.Compile(root)
	if err != nil {
		panic(err)
	}
	x := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	dst := make([]float32, p.Len())
	if err := p.Run(dst, expr.Array("x", x), expr.Value[float32]("mean", 4.5), expr.Value[float32]("std", 2)); err != nil {
		panic(err)
	}
	fmt.Println(p.Shape(), dst)
	// Output: [2 4] [-1.75 -1.25 -0.75 -0.25 0.25 0.75 1.25 1.75]
}

// A dense layer's bias and ReLU, max(x*w + b, 0), with the builder: x is a
// batch of 3 rows of 4 features, w and b rows of 4 that the kernels repeat
// for every row of x without copying them.
func Example_denseReLU() {
	x, w, b := expr.Input[float32]("x", 3, 4), expr.Input[float32]("w", 4), expr.Input[float32]("b", 4)
	p, err := expr.Compile(expr.Max(expr.Add(expr.Mul(x, w), b), expr.Const[float32](0)))
	if err != nil {
		panic(err)
	}
	dst := make([]float32, p.Len())
	err = p.Run(dst,
		expr.Array("x", []float32{1, 2, 3, 4, -1, -2, -3, -4, 0.5, 0, -0.5, 1}),
		expr.Array("w", []float32{1, 0.5, 2, -1}),
		expr.Array("b", []float32{0, 1, -1, 2}))
	if err != nil {
		panic(err)
	}
	for r := range 3 {
		fmt.Println(dst[4*r : 4*r+4])
	}
	// Output:
	// [1 2 5 0]
	// [0 0 0 6]
	// [0.5 1 0 1]
}

// Errors name the input and the shapes, and point at the column of a
// syntax error.
func ExampleParse_error() {
	_, err := expr.Parse[float64]("max(x, ) + 1", nil)
	fmt.Println(err)
	// Output:
	// expr: column 8: expected an operand, found ")"
	// 	max(x, ) + 1
	// 	       ^
}

// RunParallel splits the blocks of a big output among goroutines.
func ExamplePlan_RunParallel() {
	const n = 1 << 20
	a, b := expr.Input[float64]("a", n), expr.Input[float64]("b", n)
	p, err := expr.Compile(expr.Add(expr.Mul(a, expr.Scalar[float64]("s")), expr.Mul(b, expr.Scalar[float64]("t"))))
	if err != nil {
		panic(err)
	}
	xs, ys, dst := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range xs {
		xs[i], ys[i] = float64(i), 1
	}
	err = p.RunParallel(0, dst, expr.Array("a", xs), expr.Array("b", ys), expr.Value("s", 0.5), expr.Value("t", 2.0))
	fmt.Println(dst[:3], dst[n-1], err)
	// Output: [2 2.5 3] 524289.5 <nil>
}

// GELU, SiLU and log returns, each one expression and one pass: the math
// functions (erf, sigmoid, log, ...) run inside the fused kernels with the
// bits of the named calls (elem.Erf, elem.Sigmoid, elem.Log).
func Example_activations() {
	shapes := map[string][]int{"x": {4}, "p": {4}, "q": {4}}
	x := []float32{-2, -0.5, 0.5, 2}
	for _, src := range []string{"0.5*x*(1 + erf(x*0.70710678))", "x * sigmoid(x)", "log(p / q)"} {
		root, err := expr.Parse[float32](src, shapes)
		if err != nil {
			panic(err)
		}
		p, err := expr.Compile(root)
		if err != nil {
			panic(err)
		}
		args := []expr.Binding{expr.Array("x", x)}
		if src == "log(p / q)" {
			args = []expr.Binding{expr.Array("p", []float32{101, 99, 100, 103}), expr.Array("q", []float32{100, 101, 99, 100})}
		}
		dst := make([]float32, p.Len())
		if err := p.Run(dst, args...); err != nil {
			panic(err)
		}
		fmt.Printf("%-30s %.6f\n", src, dst)
	}
	// Output:
	// 0.5*x*(1 + erf(x*0.70710678))  [-0.045500 -0.154269 0.345731 1.954500]
	// x * sigmoid(x)                 [-0.238406 -0.188770 0.311230 1.761594]
	// log(p / q)                     [0.009950 -0.020001 0.010050 0.029559]
}

// An image's uint8 pixels, 2 x 2 x 3 channels last, normalised per channel
// and brought back to uint8, clamp(round((x - m) / s * 255), 0, 255): the
// conversions run block by block with the float32 ops, one pass over the
// pixels, and the inputs of both types are bound in one run.
func ExampleConvert() {
	x := expr.Convert[float32](expr.Input[uint8]("x", 2, 2, 3))
	m, s := expr.Input[float32]("m", 3), expr.Input[float32]("s", 3)
	y := expr.Mul(expr.Div(expr.Sub(x, m), s), expr.Const[float32](255))
	root := expr.Convert[uint8](expr.Clamp(expr.Round(y), expr.Const[float32](0), expr.Const[float32](255)))
	p, err := expr.Compile(root)
	if err != nil {
		panic(err)
	}
	pixels := []uint8{0, 64, 128, 100, 150, 200, 255, 255, 255, 30, 60, 90}
	dst := make([]uint8, p.Len())
	err = p.Run(dst, expr.Array("x", pixels),
		expr.Array("m", []float32{0, 50, 100}), expr.Array("s", []float32{255, 510, 1020}))
	if err != nil {
		panic(err)
	}
	fmt.Println(dst)
	// Output: [0 7 7 100 50 25 255 103 39 30 5 0]
}

// Half-precision weights in and out of a float32 expression: converted by
// value, rounded to nearest even on the way back.
func ExampleConvert_half() {
	w := []elem.Float16{elem.Float16FromFloat32(0.5), elem.Float16FromFloat32(-1.25), elem.Float16FromFloat32(3)}
	x := expr.Convert[float32](expr.Input[elem.Float16]("w", 3))
	root := expr.Convert[elem.Float16](expr.Tanh(expr.Mul(x, expr.Scalar[float32]("s"))))
	p, err := expr.Compile(root)
	if err != nil {
		panic(err)
	}
	dst := make([]elem.Float16, 3)
	if err := p.Run(dst, expr.Array("w", w), expr.Value[float32]("s", 2)); err != nil {
		panic(err)
	}
	fmt.Println(dst)
	// Output: [0.7617 -0.987 1]
}
