package expr_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/expr"
)

func TestConvertQuick(t *testing.T) {
	x := expr.Input[uint8]("x", 4, 5, 3)
	m := expr.Input[float32]("m", 3)
	s := expr.Input[float32]("s", 3)
	f := expr.Clamp(expr.Round(expr.Mul(expr.Div(expr.Sub(expr.Convert[float32](x), m), s), expr.Const[float32](255))), expr.Const[float32](0), expr.Const[float32](255))
	p, err := expr.Compile(expr.Convert[uint8](f))
	require.NoError(t, err)
	xs := make([]uint8, 60)
	for i := range xs {
		xs[i] = uint8(i * 7)
	}
	ms, ss := []float32{100, 120, 140}, []float32{300, 200, 100}
	dst := make([]uint8, 60)
	require.NoError(t, p.Run(dst, expr.Array("x", xs), expr.Array("m", ms), expr.Array("s", ss)))
	want := make([]uint8, 60)
	for i, v := range xs {
		y := (float32(v) - ms[i%3]) / ss[i%3] * 255
		var r [1]float32
		elem.Round(r[:], []float32{y})
		want[i] = uint8(min(max(r[0], 0), 255))
	}
	require.Equal(t, want, dst)
}
