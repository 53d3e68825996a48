package gonum_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	elemgonum "github.com/simdkit/elem/examples/gonum"
)

// TestAgainstGonum compares a + b.T on sub-views with gonum's own Add.
func TestAgainstGonum(t *testing.T) {
	big := mat.NewDense(9, 11, nil)
	for i := range 9 {
		for j := range 11 {
			big.Set(i, j, float64(i*11+j)/7)
		}
	}
	a := big.Slice(1, 6, 2, 9).(*mat.Dense) // 5 x 7
	b := big.Slice(0, 7, 3, 8).(*mat.Dense) // 7 x 5
	var want mat.Dense
	want.Add(a, b.T())
	got := mat.NewDense(5, 7, nil)
	av, ok := elemgonum.View(a)
	require.True(t, ok)
	bt, ok := elemgonum.View(b.T())
	require.True(t, ok)
	dst, _ := elemgonum.View(got)
	require.NoError(t, broadcast.ApplyView(elem.OpAdd, dst, av, bt))
	require.True(t, mat.Equal(&want, got))

	_, ok = elemgonum.View(mat.NewDiagDense(2, nil))
	require.False(t, ok)
}
