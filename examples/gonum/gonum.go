// Package gonum shows elem on gonum's matrices without copies: a
// *mat.Dense, any sub-matrix from Slice, its transpose from T() and a
// column from ColView are strided views of one []float64, which elem's
// Matrix and broadcast's View describe by a struct literal. It is its own
// module, so that the library does not depend on gonum.
package gonum

import (
	"gonum.org/v1/gonum/mat"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
)

// Matrix is d as an elem.Matrix over the same data (gonum's General layout
// is elem's).
func Matrix(d *mat.Dense) elem.Matrix[float64] {
	r := d.RawMatrix()
	return elem.Matrix[float64]{Data: r.Data, Rows: r.Rows, Cols: r.Cols, Stride: r.Stride}
}

// View is m as a broadcast.View over the same data, for a *mat.Dense, a
// transposed one (mat.Transpose, from T()) or a *mat.VecDense (a column
// from ColView has its matrix's stride); ok is false for other types, which
// keep their elements elsewhere.
func View(m mat.Matrix) (v broadcast.View[float64], ok bool) {
	switch x := m.(type) {
	case *mat.Dense:
		r := x.RawMatrix()
		return broadcast.View[float64]{Data: r.Data, Shape: broadcast.Shape{r.Rows, r.Cols}, Strides: []int{r.Stride, 1}}, true
	case mat.Transpose:
		inner, ok := View(x.Matrix)
		return inner.Transposed(), ok
	case *mat.VecDense:
		r := x.RawVector()
		if r.N == 0 {
			return broadcast.View[float64]{Shape: broadcast.Shape{0}, Strides: []int{r.Inc}}, true
		}
		return broadcast.View[float64]{Data: r.Data[:(r.N-1)*r.Inc+1], Shape: broadcast.Shape{r.N}, Strides: []int{r.Inc}}, true
	}
	return broadcast.View[float64]{}, false
}
