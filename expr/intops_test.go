package expr_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/expr"
)

// TestIntegerNodes runs the comparisons, Where, Clamp, Neg and Abs on
// integer nodes against elem's calls one at a time, and refuses at Compile
// the unary ops defined on floats alone.
func TestIntegerNodes(t *testing.T) {
	n := 3000
	x := make([]int16, n)
	for i := range x {
		x[i] = int16(i*37 - 50000)
	}
	x[0], x[1] = math.MinInt16, math.MaxInt16
	xn := expr.Input[int16]("x", n)
	root := expr.Where(expr.Gt(xn, expr.Const[int16](100)), expr.Neg(xn), expr.Clamp(expr.Abs(xn), expr.Const[int16](7), expr.Scalar[int16]("hi")))
	p, err := expr.Compile(root)
	require.NoError(t, err)
	got := make([]int16, n)
	require.NoError(t, p.Run(got, expr.Array("x", x), expr.Value[int16]("hi", 9000)))

	gt, neg, abs, want := make([]bool, n), make([]int16, n), make([]int16, n), make([]int16, n)
	elem.GtScalar(gt, x, 100)
	elem.Neg(neg, x)
	elem.Abs(abs, x)
	elem.Clamp(abs, abs, 7, 9000)
	elem.Select(want, gt, neg, abs)
	require.Equal(t, want, got)

	_, err = expr.Compile(expr.Unary(elem.OpSqrt, xn))
	require.ErrorIs(t, err, expr.ErrOp)
	require.ErrorContains(t, err, "sqrt is not defined on int16")
}
