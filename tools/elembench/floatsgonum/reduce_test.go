package floatsgonum

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	gf "gonum.org/v1/gonum/floats"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	ef "github.com/simdkit/elem/floats"
)

// The reductions add in elem's canonical order and gonum's in its own, so
// they are compared within the bound of two summation orders: each sum of
// n terms is within (n-1)u·Σ|term| of the exact one (u = 2^-53), so the
// two within 2n·u·Σ|term|, where the finite terms' magnitudes do not
// overflow (where they do, the order decides between an infinity and a
// finite sum, and only NaN against NaN and infinity against infinity are
// required). Where the result is a NaN or an infinity, both must be.
const u = 0x1p-53

// requireNear fails unless got and want are both NaN, the same infinity,
// or finite and within bound of each other. An infinite bound, where the
// finite terms' magnitudes overflow, requires nothing.
func requireNear(t *testing.T, want, got, bound float64, format string, args ...any) {
	t.Helper()
	switch {
	case math.IsInf(bound, 0):
	case math.IsNaN(want) || math.IsNaN(got):
		require.True(t, math.IsNaN(want) && math.IsNaN(got), append([]any{format + ": gonum %v, elem %v"}, append(args, want, got)...)...)
	case math.IsInf(want, 0) || math.IsInf(got, 0):
		require.Equal(t, want, got, append([]any{format}, args...)...)
	default:
		require.InDelta(t, want, got, bound, append([]any{format}, args...)...)
	}
}

// magnitude is Σ|f(i)| over the finite terms f(i), i < n.
func magnitude(n int, f func(i int) float64) float64 {
	var m float64
	for i := range n {
		if x := math.Abs(f(i)); !math.IsInf(x, 0) && !math.IsNaN(x) {
			m += x
		}
	}
	return m
}

// sequential returns the scan of s by f in index order: elem's CumSum and
// CumProd.
func sequential(s []float64, f func(x, y float64) float64) []float64 {
	d := make([]float64, len(s))
	for i, v := range s {
		if i == 0 {
			d[0] = v
			continue
		}
		d[i] = f(d[i-1], v)
	}
	return d
}

func TestSumsNearGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range testLengths {
		for _, p := range profiles {
			s, v := data(r, p, n, r.IntN(4)), data(r, p, n, r.IntN(4))
			bound := 2 * float64(n) * u
			abs := magnitude(n, func(i int) float64 { return s[i] })
			requireNear(t, gf.Sum(s), ef.Sum(s), bound*abs, "Sum n=%d profile=%d", n, p)
			requireSameBits(t, []float64{elem.Sum(s)}, []float64{ef.Sum(s)}, "Sum is elem.Sum")
			requireNear(t, gf.Norm(s, 1), ef.Norm(s, 1), bound*abs, "Norm 1 n=%d profile=%d", n, p)
			requireSameBits(t, []float64{elem.Norm1(s)}, []float64{ef.Norm(s, 1)}, "Norm 1 is elem.Norm1")
			dot := magnitude(n, func(i int) float64 { return s[i] * v[i] })
			requireNear(t, gf.Dot(s, v), ef.Dot(s, v), bound*dot, "Dot n=%d profile=%d", n, p)
			requireSameBits(t, []float64{elem.Dot(s, v)}, []float64{ef.Dot(s, v)}, "Dot is elem.Dot")
			diff := magnitude(n, func(i int) float64 { return s[i] - v[i] })
			requireNear(t, gf.Distance(s, v, 1), ef.Distance(s, v, 1), bound*diff, "Distance 1 n=%d profile=%d", n, p)
			requireSameBits(t, []float64{gf.SumCompensated(s)}, []float64{ef.SumCompensated(s)}, "SumCompensated n=%d", n)

			want, got := gf.CumSum(make([]float64, n), s), ef.CumSum(make([]float64, n), s)
			requireSameBits(t, sequential(s, func(x, y float64) float64 { return x + y }), got, "CumSum is in index order")
			for i := range want {
				abs := magnitude(i+1, func(j int) float64 { return s[j] })
				requireNear(t, want[i], got[i], 2*float64(i+1)*u*abs, "CumSum n=%d i=%d profile=%d", n, i, p)
			}
		}
	}
}

// nearOne returns n values in [0.5, 2) with, for profile special, a few of
// ±0, ±Inf and NaN: products that neither overflow nor underflow unless
// they meet one of those, whose results no order changes.
func nearOne(r *rand.Rand, p profile, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.Ldexp(1+r.Float64(), -r.IntN(2))
		if r.IntN(2) == 0 {
			s[i] = -s[i]
		}
		if p == special && r.IntN(40) == 0 {
			s[i] = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN()}[r.IntN(5)]
		}
	}
	return s
}

func TestProductsNearGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, n := range testLengths {
		for _, p := range []profile{clean, special} {
			s := nearOne(r, p, n)
			want := gf.Prod(s)
			requireNear(t, want, ef.Prod(s), 2*float64(n)*u*math.Abs(want), "Prod n=%d profile=%d", n, p)
			cw, cg := gf.CumProd(make([]float64, n), s), ef.CumProd(make([]float64, n), s)
			requireSameBits(t, sequential(s, func(x, y float64) float64 { return x * y }), cg, "CumProd is in index order")
			for i := range cw {
				requireNear(t, cw[i], cg[i], 2*float64(i+1)*u*math.Abs(cw[i]), "CumProd n=%d i=%d profile=%d", n, i, p)
			}
		}
	}
}

// norms are the L of the Norm and Distance tests: elem's three and
// gonum's formula for any other, L <= 0 and NaN included.
var norms = []float64{2, 1, math.Inf(1), 3, 0.5, 0, -1, math.Inf(-1), math.NaN()}

func TestNormsNearGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, n := range testLengths {
		for _, p := range profiles {
			s, v := data(r, p, n, r.IntN(4)), data(r, p, n, r.IntN(4))
			for _, L := range norms {
				checkNorm(t, L, gf.Norm(s, L), ef.Norm(s, L), s, nil, "Norm n=%d profile=%d L=%v", n, p, L)
				checkNorm(t, L, gf.Distance(s, v, L), ef.Distance(s, v, L), s, v, "Distance n=%d profile=%d L=%v", n, p, L)
			}
			// Norm 2 is the root of elem.SumSq, or elem.Norm2 where that
			// sum overflows or underflows.
			want := elem.Norm2(s)
			if sq := elem.SumSq(s); sq >= 0x1p-900 && sq <= math.MaxFloat64 {
				want = math.Sqrt(sq)
			}
			if !gf.HasNaN(s) {
				requireSameBits(t, []float64{want}, []float64{ef.Norm(s, 2)}, "Norm 2 is elem's n=%d profile=%d", n, p)
			}
		}
	}
}

// checkNorm compares an L-norm of s (or of s - t): exactly for L = +Inf,
// a maximum; for L = 2 within (2n+4)u relative (gonum's scaled sum and
// elem's double-double one are both within (n+2)u of the exact norm);
// for the others within 2n·u of the sum of the terms |x|^L and 2u of
// each of them (elem's Pow and math.Pow are within an ulp), scaled by
// 1/|L| through the root, where that sum is normal.
func checkNorm(t *testing.T, L, want, got float64, s, v []float64, format string, args ...any) {
	t.Helper()
	n := float64(len(s))
	switch {
	case math.IsInf(L, 1):
		if !math.IsNaN(want) {
			require.Equal(t, want, got, append([]any{format}, args...)...)
			return
		}
		requireNear(t, want, got, 0, format, args...)
	case L == 2:
		requireNear(t, want, got, (2*n+4)*u*math.Abs(want), format, args...)
	case L == 1:
		// TestSumsNearGonum's bound.
	default:
		var sum float64
		for i, x := range s {
			if v != nil {
				x = v[i] - x
			}
			sum += math.Pow(math.Abs(x), L)
		}
		bound := (2*n + 4) * u * math.Abs(want) * max(1, 1/math.Abs(L))
		if sum < 0x1p-1000 || math.IsInf(sum, 0) {
			bound = math.MaxFloat64 // tiny sums lose their relative precision; only NaN and Inf are compared
		}
		requireNear(t, want, got, bound, format, args...)
	}
}

func TestLogSumExpNearGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, n := range testLengths[1:] {
		for _, p := range profiles {
			s := data(r, p, n, r.IntN(4))
			want, got := gf.LogSumExp(s), ef.LogSumExp(s)
			// The sum S >= 1 of n terms in [0, 1], each within an ulp, to
			// 2(n+2)u relative; log adds an ulp and + max another.
			requireNear(t, want, got, (2*float64(n)+8)*u*(1+math.Abs(want)), "LogSumExp n=%d profile=%d", n, p)
			if m := gf.Max(s); !math.IsInf(m, 0) && !gf.HasNaN(s) {
				var lse [1]float64
				require.NoError(t, broadcast.LogSumExp(lse[:], nil, s, broadcast.Shape{n}))
				requireSameBits(t, lse[:], []float64{got}, "LogSumExp is broadcast.LogSumExp")
			}
		}
	}
	requireSamePanic(t, func() { gf.LogSumExp(nil) }, func() { ef.LogSumExp(nil) }, "LogSumExp")
}

func TestReductionPanicsMatchGonum(t *testing.T) {
	a, b := make([]float64, 3), make([]float64, 4)
	for _, c := range []struct {
		name        string
		gonum, ours func()
	}{
		{"Dot", func() { gf.Dot(a, b) }, func() { ef.Dot(a, b) }},
		{"Distance", func() { gf.Distance(a, b, 2) }, func() { ef.Distance(a, b, 2) }},
		{"Distance 3", func() { gf.Distance(b, a, 3) }, func() { ef.Distance(b, a, 3) }},
		{"CumSum", func() { gf.CumSum(a, b) }, func() { ef.CumSum(a, b) }},
		{"CumProd", func() { gf.CumProd(b, a) }, func() { ef.CumProd(b, a) }},
	} {
		requireSamePanic(t, c.gonum, c.ours, c.name)
	}
}
