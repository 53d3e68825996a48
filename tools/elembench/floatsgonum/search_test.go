package floatsgonum

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	gf "gonum.org/v1/gonum/floats"

	ef "github.com/simdkit/elem/floats"
)

// The functions that are not elementwise give gonum's results exactly:
// indices, booleans, errors and panics, and the bits of the values they
// return or write.

func TestSearchesMatchGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	positive := func(v float64) bool { return v > 0 }
	for _, n := range testLengths {
		for _, p := range profiles {
			s := data(r, p, n, r.IntN(4))
			require.Equal(t, gf.HasNaN(s), ef.HasNaN(s), "HasNaN n=%d profile=%d", n, p)
			require.Equal(t, gf.Count(positive, s), ef.Count(positive, s))
			for _, k := range []int{-1, 0, 1, 3, n, n + 1} {
				for _, inds := range [][]int{nil, {7, 8}} {
					wi, we := gf.Find(slices.Clone(inds), positive, s, k)
					gi, ge := ef.Find(slices.Clone(inds), positive, s, k)
					require.Equal(t, wi, gi, "Find k=%d", k)
					require.Equal(t, we, ge, "Find k=%d", k)
				}
			}
			if n == 0 {
				requireSamePanic(t, func() { gf.Max(s) }, func() { ef.Max(s) }, "Max")
				requireSamePanic(t, func() { gf.MaxIdx(s) }, func() { ef.MaxIdx(s) }, "MaxIdx")
				requireSamePanic(t, func() { gf.Min(s) }, func() { ef.Min(s) }, "Min")
				requireSamePanic(t, func() { gf.MinIdx(s) }, func() { ef.MinIdx(s) }, "MinIdx")
				requireSamePanic(t, func() { gf.NearestIdx(s, 1) }, func() { ef.NearestIdx(s, 1) }, "NearestIdx")
				continue
			}
			require.Equal(t, gf.MaxIdx(s), ef.MaxIdx(s), "MaxIdx n=%d profile=%d", n, p)
			require.Equal(t, gf.MinIdx(s), ef.MinIdx(s), "MinIdx n=%d profile=%d", n, p)
			requireSameBits(t, []float64{gf.Max(s), gf.Min(s)}, []float64{ef.Max(s), ef.Min(s)}, "Max, Min n=%d profile=%d", n, p)
			for _, v := range append(slices.Clone(scalars), s[r.IntN(n)]) {
				require.Equal(t, gf.NearestIdx(s, v), ef.NearestIdx(s, v), "NearestIdx v=%v n=%d profile=%d", v, n, p)
			}
			sorted := slices.DeleteFunc(slices.Clone(s), math.IsNaN)
			slices.Sort(sorted)
			for _, v := range append([]float64{math.NaN(), math.Inf(1), math.Inf(-1)}, s[r.IntN(n)], r.NormFloat64()) {
				w, g := -2, -2
				wp := panicOf(func() { w = gf.Within(sorted, v) })
				gp := panicOf(func() { g = ef.Within(sorted, v) })
				require.Equal(t, wp, gp, "Within panic")
				require.Equal(t, w, g, "Within v=%v", v)
			}
			if n >= 2 && !slices.IsSorted(s) {
				requireSamePanic(t, func() { gf.Within(s, 0) }, func() { ef.Within(s, 0) }, "Within unsorted")
			}
		}
	}
}

func TestSortsMatchGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, n := range testLengths {
		for _, p := range profiles {
			s := data(r, p, n, r.IntN(4))
			for _, sorter := range []struct {
				name        string
				gonum, ours func([]float64, []int)
			}{{"Argsort", gf.Argsort, ef.Argsort}, {"ArgsortStable", gf.ArgsortStable, ef.ArgsortStable}} {
				wd, gd := slices.Clone(s), slices.Clone(s)
				wi, gi := make([]int, n), make([]int, n)
				sorter.gonum(wd, wi)
				sorter.ours(gd, gi)
				requireSameBits(t, wd, gd, "%s n=%d profile=%d", sorter.name, n, p)
				require.Equal(t, wi, gi, "%s n=%d profile=%d", sorter.name, n, p)
				requireSamePanic(t, func() { sorter.gonum(wd, wi[:n/2]) }, func() { sorter.ours(gd, gi[:n/2]) }, "%s lengths", sorter.name)
			}
			wr, gr := slices.Clone(s), slices.Clone(s)
			//lint:ignore SA1019 Reverse is deprecated in gonum, and tested as part of its API.
			gf.Reverse(wr)
			//lint:ignore SA1019 the same in elem's copy.
			ef.Reverse(gr)
			requireSameBits(t, wr, gr, "Reverse")
		}
	}
}

func TestComparisonsMatchGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	near := func(x, y float64) bool { return math.Abs(x-y) < 1 }
	for _, n := range testLengths {
		for _, p := range profiles {
			s := data(r, p, n, r.IntN(4))
			others := [][]float64{s, slices.Clone(s), data(r, p, n, 0), s[:n/2]}
			if n > 0 {
				nudged := slices.Clone(s)
				i := r.IntN(n)
				nudged[i] = math.Nextafter(nudged[i], math.Inf(1))
				others = append(others, nudged)
			}
			for _, o := range others {
				require.Equal(t, gf.Equal(s, o), ef.Equal(s, o))
				require.Equal(t, gf.Same(s, o), ef.Same(s, o))
				require.Equal(t, gf.EqualFunc(s, o, near), ef.EqualFunc(s, o, near))
				require.Equal(t, gf.EqualLengths(s, o, s), ef.EqualLengths(s, o, s))
				for _, tol := range []float64{0, 1e-15, 1e-3, 1, math.Inf(1), math.NaN()} {
					require.Equal(t, gf.EqualApprox(s, o, tol), ef.EqualApprox(s, o, tol), "EqualApprox tol=%v n=%d profile=%d", tol, n, p)
				}
			}
		}
	}
	require.Equal(t, gf.EqualLengths(), ef.EqualLengths())
	// EqualApprox pair by pair over the adversarial values.
	for _, a := range scalars {
		for _, b := range scalars {
			for _, tol := range []float64{0, 1e-300, 1e-15, 0.5, 2} {
				x, y := []float64{a}, []float64{b}
				require.Equal(t, gf.EqualApprox(x, y, tol), ef.EqualApprox(x, y, tol), "EqualApprox(%v, %v, %v)", a, b, tol)
			}
		}
	}
}

func TestSpansMatchGonum(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 4, 7, 64, 1001} {
		for _, l := range scalars {
			for _, u := range scalars {
				var w, g []float64
				wp := panicOf(func() { w = gf.Span(make([]float64, n), l, u) })
				gp := panicOf(func() { g = ef.Span(make([]float64, n), l, u) })
				require.Equal(t, wp, gp, "Span panic n=%d", n)
				requireSameBits(t, w, g, "Span(%d, %v, %v)", n, l, u)
				wp = panicOf(func() { w = gf.LogSpan(make([]float64, n), l, u) })
				gp = panicOf(func() { g = ef.LogSpan(make([]float64, n), l, u) })
				require.Equal(t, wp, gp, "LogSpan panic n=%d", n)
				requireSameBits(t, w, g, "LogSpan(%d, %v, %v)", n, l, u)
				if n > 64 {
					continue
				}
				for _, v := range scalars {
					w, g := -1, -1
					wp := panicOf(func() { w = gf.NearestIdxForSpan(n, l, u, v) })
					gp := panicOf(func() { g = ef.NearestIdxForSpan(n, l, u, v) })
					require.Equal(t, wp, gp, "NearestIdxForSpan panic n=%d", n)
					require.Equal(t, w, g, "NearestIdxForSpan(%d, %v, %v, %v)", n, l, u, v)
				}
			}
		}
	}
}
