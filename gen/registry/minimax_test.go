package registry

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMinimaxLevels: the fit's error equioscillates (the largest error
// over a dense check of the interval is the levelled one), falls with the
// degree as the theory says, and the coefficients of e^r near 0 approach
// Taylor's.
func TestMinimaxLevels(t *testing.T) {
	target := fitTarget{f: expm1Rest, w: func(x *big.Float) *big.Float { return bnew().Quo(bf(1), bigExp(x)) }}
	a := math.Ln2 / 32
	prev := math.Inf(1)
	for deg := 3; deg <= 6; deg++ {
		var pows []int
		for p := 2; p <= deg; p++ {
			pows = append(pows, p)
		}
		c, worst := minimax(target, -a, a, pows)
		// The error at 10001 points of the interval, none above the
		// levelled maximum by more than the grid's resolution allows.
		checked := 0.0
		for i := 0; i <= 10000; i++ {
			x := bf(-a + 2*a*float64(i)/10000)
			e := bnew().Sub(expm1Rest(x), bpoly(c, pows, x))
			e.Mul(e, target.w(x))
			v, _ := e.Abs(e).Float64()
			checked = math.Max(checked, v)
		}
		require.LessOrEqual(t, checked, worst*1.01, "degree %d", deg)
		require.Less(t, worst, prev/100, "degree %d: no better than the one below", deg)
		prev = worst
		c2, _ := c[0].Float64()
		require.InDelta(t, 0.5, c2, 1e-4, "degree %d: r^2's coefficient", deg)
	}
}

// TestMinimaxOdd: an odd function fitted by odd powers (the basis's zero
// at 0 divided out) keeps its relative error levelled.
func TestMinimaxOdd(t *testing.T) {
	sin := func(x *big.Float) *big.Float { // x - x^3/6 + ..., enough terms for |x| <= 1
		sum, term := bnew().Set(x), bnew().Set(x)
		x2 := bnew().Mul(x, x)
		for k := 1; k < 40; k++ {
			term.Mul(term, x2)
			term.Quo(term, bf(float64(-(2*k)*(2*k+1))))
			sum.Add(sum, term)
		}
		return sum
	}
	c, worst := minimax(relative(sin), 0, 1, []int{1, 3, 5, 7, 9})
	require.Less(t, worst, 1e-9)
	c1, _ := c[0].Float64()
	require.InDelta(t, 1, c1, 1e-8)
}
