package floats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reductions against gonum's left-to-right loops: within a relative
// 1e-13 of the sum of the terms' magnitudes (the canonical order's error
// bound is far smaller), and the scans exactly.
func TestReductionsNearLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	near := func(want, got, scale float64, what string, n int) {
		t.Helper()
		require.InDelta(t, want, got, 1e-13*scale+1e-300, "%s n=%d", what, n)
	}
	for _, n := range lengths() {
		s, u := randomData(r, n, false), randomData(r, n, false)
		var sum, abs, dot, absDot, sq, prod, l1, l3, d1, d3 = 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0
		var inf, dInf float64
		near1 := make([]float64, n)
		for i, v := range s {
			near1[i] = 1 + v/1e4
			sum, abs = sum+v, abs+math.Abs(v)
			dot, absDot = dot+v*u[i], absDot+math.Abs(v*u[i])
			sq += v * v
			prod *= near1[i]
			l1, l3 = l1+math.Abs(v), l3+math.Pow(math.Abs(v), 3)
			d := math.Abs(u[i] - v)
			d1, d3 = d1+d, d3+math.Pow(d, 3)
			inf, dInf = max(inf, math.Abs(v)), max(dInf, d)
		}
		near(sum, Sum(s), abs, "Sum", n)
		near(SumCompensated(s), Sum(s), abs, "SumCompensated", n)
		near(dot, Dot(s, u), absDot, "Dot", n)
		near(prod, Prod(near1), math.Abs(prod), "Prod", n)
		near(l1, Norm(s, 1), l1, "Norm 1", n)
		near(math.Sqrt(sq), Norm(s, 2), math.Sqrt(sq), "Norm 2", n)
		near(math.Cbrt(l3), Norm(s, 3), math.Cbrt(l3), "Norm 3", n)
		require.Equal(t, inf, Norm(s, math.Inf(1)), "Norm Inf n=%d", n)
		near(d1, Distance(s, u, 1), d1, "Distance 1", n)
		near(math.Cbrt(d3), Distance(s, u, 3), math.Cbrt(d3), "Distance 3", n)
		require.Equal(t, dInf, Distance(s, u, math.Inf(1)), "Distance Inf n=%d", n)
		if n > 0 {
			m := slices.Max(s)
			var e float64
			for _, v := range s {
				e += math.Exp(v - m)
			}
			near(math.Log(e)+m, LogSumExp(s), math.Abs(math.Log(e)+m)+1, "LogSumExp", n)
		}
		cs, cp := make([]float64, n), make([]float64, n)
		CumSum(cs, s)
		CumProd(cp, near1)
		for i := range s {
			if i == 0 {
				require.Equal(t, []float64{s[0], near1[0]}, []float64{cs[0], cp[0]})
				continue
			}
			require.Equal(t, cs[i-1]+s[i], cs[i], "CumSum n=%d i=%d", n, i)
			require.Equal(t, cp[i-1]*near1[i], cp[i], "CumProd n=%d i=%d", n, i)
		}
	}
}

func TestNormSpecialCases(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		s    []float64
		L    float64
		want float64
	}{
		{nil, 2, 0}, {nil, 3, 0}, {nil, inf, 0},
		{[]float64{1e200, 1e200, 3e200}, 2, 3.3166247903554e200}, // no overflow
		{[]float64{3e-200, 4e-200}, 2, 5e-200},                   // no underflow
		{[]float64{1, -inf, nan}, inf, inf},                      // gonum's math.Max: +Inf over NaN
		{[]float64{1, nan, 2}, inf, nan},
		{[]float64{nan, inf}, 2, nan},
		{[]float64{inf, 1}, 2, inf},
		{[]float64{-3, 4}, 1, 7},
		{[]float64{2, 2}, 0, inf},      // gonum's formula at L = 0: 2^(1/0)
		{[]float64{2, 4}, -1, 4.0 / 3}, // and below
		{[]float64{0.5, 3}, math.Inf(-1), 1},
		{[]float64{1, 2}, nan, nan},
	} {
		got := Norm(c.s, c.L)
		if math.IsNaN(c.want) {
			assert.True(t, math.IsNaN(got), "Norm(%v, %v) = %v", c.s, c.L, got)
			continue
		}
		if math.IsInf(c.want, 0) || c.want == 0 {
			assert.Equal(t, c.want, got, "Norm(%v, %v)", c.s, c.L)
			continue
		}
		assert.InEpsilon(t, c.want, got, 1e-14, "Norm(%v, %v)", c.s, c.L)
	}
	// gonum's Distance for L = +Inf skips NaN differences.
	assert.Equal(t, 3.0, Distance([]float64{nan, 1, 5}, []float64{0, 4, 5}, inf))
	assert.Equal(t, 0.0, Distance([]float64{nan}, []float64{nan}, inf))
	assert.True(t, math.IsNaN(Distance([]float64{nan, 1}, []float64{0, 4}, 2)))
	assert.InEpsilon(t, 5e200, Distance([]float64{3e200, 0}, []float64{0, -4e200}, 2), 1e-15) // no overflow
}

func TestLogSumExpSpecialCases(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		s    []float64
		want float64
	}{
		{[]float64{nan, inf}, inf}, // the greatest non-NaN value, infinite
		{[]float64{-inf, nan}, -inf},
		{[]float64{-inf, -inf}, -inf},
		{[]float64{1, nan}, nan},
		{[]float64{nan}, nan},
		{[]float64{1000, 1000}, 1000 + math.Ln2}, // no overflow
		{[]float64{-inf, 0}, 0},
	} {
		got := LogSumExp(c.s)
		if math.IsNaN(c.want) {
			assert.True(t, math.IsNaN(got), "LogSumExp(%v) = %v", c.s, got)
			continue
		}
		assert.Equal(t, c.want, got, "LogSumExp(%v)", c.s)
	}
}

func TestNonElementwise(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	assert.Equal(t, []float64{1, 1.25, 1.5, 1.75, 2}, Span(make([]float64, 5), 1, 2))
	assert.Equal(t, []float64{-inf, 0, inf}, Span(make([]float64, 3), -inf, inf))
	assert.Equal(t, []float64{1, inf, inf}, Span(make([]float64, 3), 1, inf))
	assert.True(t, Same([]float64{nan, nan, 2}, Span(make([]float64, 3), nan, 2)))
	assert.InDeltaSlice(t, []float64{1, 10, 100}, LogSpan(make([]float64, 3), 1, 100), 1e-12)
	assert.Equal(t, 2, NearestIdx([]float64{nan, 5, 2.9, 3.1}, 3))
	assert.Equal(t, 1, NearestIdx([]float64{nan, 5, 2.9}, inf))
	assert.Equal(t, 0, NearestIdx([]float64{1, 2}, nan))
	assert.Equal(t, 2, NearestIdxForSpan(5, 0, 4, 2.2))
	assert.Equal(t, 4, NearestIdxForSpan(5, 0, 4, inf))
	assert.Equal(t, 1, Within([]float64{0, 1, 2, 3}, 1.5))
	assert.Equal(t, -1, Within([]float64{0, 1, 2, 3}, 3))
	assert.Equal(t, -1, Within([]float64{0, 1}, nan))
	positive := func(v float64) bool { return v > 0 }
	s := []float64{-1, 2, 3, -4, 5}
	assert.Equal(t, 3, Count(positive, s))
	inds, err := Find(nil, positive, s, 2)
	assert.Equal(t, []int{1, 2}, inds)
	assert.NoError(t, err)
	inds, err = Find(inds, positive, s, -1)
	assert.Equal(t, []int{1, 2, 4}, inds)
	assert.NoError(t, err)
	inds, err = Find(inds, positive, s, 4)
	assert.Equal(t, []int{1, 2, 4}, inds)
	assert.EqualError(t, err, "floats: insufficient elements found")
	inds, err = Find(inds, positive, s, 0)
	assert.Empty(t, inds)
	assert.NoError(t, err)
	assert.True(t, Equal([]float64{0, 1}, []float64{math.Copysign(0, -1), 1}))
	assert.False(t, Equal([]float64{nan}, []float64{nan}))
	assert.False(t, Equal([]float64{1}, []float64{1, 2}))
	assert.True(t, Same([]float64{nan, 1}, []float64{nan, 1}))
	assert.False(t, Same([]float64{nan, 1}, []float64{1, 1}))
	assert.True(t, EqualApprox([]float64{1, 1e10, 1e-310}, []float64{1.05, 1.05e10, 2e-310}, 0.1))
	assert.False(t, EqualApprox([]float64{1, inf}, []float64{1, -inf}, 0.1))
	assert.False(t, EqualApprox([]float64{1, 2}, []float64{1, 2.5}, 0.1))
	assert.True(t, EqualFunc([]float64{1, 2}, []float64{2, 3}, func(a, b float64) bool { return b == a+1 }))
	assert.True(t, EqualLengths())
	assert.True(t, EqualLengths(s, s))
	assert.False(t, EqualLengths(s, s[1:]))
	dst, idx := []float64{3, 1, 2, 1}, make([]int, 4)
	ArgsortStable(dst, idx)
	assert.Equal(t, []int{1, 3, 2, 0}, idx)
	assert.Equal(t, []float64{1, 1, 2, 3}, dst)
	dst = []float64{3, 1, 2}
	Argsort(dst, idx[:3])
	assert.Equal(t, []int{1, 2, 0}, idx[:3])
	Reverse(dst)
	assert.Equal(t, []float64{3, 2, 1}, dst)
	assert.Equal(t, 1.0, Prod(nil))
	assert.Equal(t, 2.0, SumCompensated([]float64{1, 1e100, 1, -1e100}))
}
