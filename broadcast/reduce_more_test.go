package broadcast

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// refIndexes lists, for each output of a reduction of aShape over the
// reduced axes (row-major over the kept axes), the flat indexes of its
// values in index order.
func refIndexes(aShape Shape, reduced []bool) [][]int {
	outLen := 1
	for i, d := range aShape {
		if !reduced[i] {
			outLen *= d
		}
	}
	out := make([][]int, outLen)
	idx := make([]int, len(aShape))
	n, _ := aShape.Size()
	for at := range n {
		o := 0
		for i, d := range aShape {
			if !reduced[i] {
				o = o*d + idx[i]
			}
		}
		out[o] = append(out[o], at)
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < aShape[i] {
				break
			}
			idx[i] = 0
		}
	}
	return out
}

// refReduce applies f to the values of each output, gathered in index
// order.
func refReduce[T, R any](a []T, aShape Shape, reduced []bool, f func([]T) R) []R {
	return applyEach(gatherOutputs(a, refIndexes(aShape, reduced)), f)
}

// gatherOutputs returns the values of a at each output's indexes.
func gatherOutputs[T any](a []T, idx [][]int) [][]T {
	out := make([][]T, len(idx))
	for o, at := range idx {
		out[o] = make([]T, len(at))
		for i, j := range at {
			out[o][i] = a[j]
		}
	}
	return out
}

// applyEach applies f to the values of each output.
func applyEach[T, R any](values [][]T, f func([]T) R) []R {
	out := make([]R, len(values))
	for o, v := range values {
		out[o] = f(v)
	}
	return out
}

// dstShapes are the two shapes a reduction's dst may have: the reduced
// axes kept as 1, and removed.
func dstShapes(shape Shape, reduced []bool) []Shape {
	var keep, squeeze Shape
	for i, d := range shape {
		if reduced[i] {
			keep = append(keep, 1)
		} else {
			keep, squeeze = append(keep, d), append(squeeze, d)
		}
	}
	return []Shape{keep, squeeze}
}

// firstNaNOr is the canonical NaN of a result over v: its first NaN, quiet
// when quiet is set, or the default NaN.
func firstNaNOr[T elem.Number](v []T, quiet bool) T {
	for _, x := range v {
		if x != x {
			if quiet {
				return kernel.Quiet(x)
			}
			return x
		}
	}
	return kernel.DefaultNaN[T]()
}

// refProd is the canonical product written plainly: value i into
// accumulator i mod 32, then the pairwise tree.
func refProd[T elem.Number](v []T) T {
	var acc [kernel.Lanes]T
	for i := range acc {
		acc[i] = 1
	}
	for i, x := range v {
		acc[i%kernel.Lanes] *= x
	}
	for h := kernel.Lanes / 2; h > 0; h /= 2 {
		for j := range h {
			acc[j] *= acc[j+h]
		}
	}
	if p := acc[0]; p != p {
		return firstNaNOr(v, true)
	}
	return acc[0]
}

// refExtreme is Go's max (or min) over v, the first NaN as it is.
func refExtreme[T elem.Number](v []T, greatest bool) T {
	m := v[0]
	for _, x := range v {
		if x != x {
			return x
		}
		if greatest {
			m = max(m, x)
		} else {
			m = min(m, x)
		}
	}
	return m
}

// moreCases are the cases of the reductions other than ReduceSum, which
// share its machinery: with -short (the native suite and the emulators),
// every fourth of reduceCases and every twelfth of the short ones, up to
// 20000 values.
func moreCases(rng *rand.Rand) []reduceCase {
	all, short := reduceCases(rng), shortReduceCases(rng)
	if !testing.Short() {
		return append(all, short...)
	}
	var small []reduceCase
	for _, c := range append(every(all, 4), every(short, 12)...) {
		if n, _ := c.shape.Size(); n <= 20000 {
			small = append(small, c)
		}
	}
	return small
}

// every returns every k-th element of xs.
func every[E any](xs []E, k int) []E {
	var out []E
	for i := 0; i < len(xs); i += k {
		out = append(out, xs[i])
	}
	return out
}

// thinPools keeps, with -short or under -race, only the pools of random
// data with specials, of a few NaNs among finite values and (up to 500
// values) of finite values, signed zeros and integer ties.
func thinPools[T elem.Number](pools []testkit.Pool[T], n int) []testkit.Pool[T] {
	if !raceBuild && !testing.Short() {
		return pools
	}
	var out []testkit.Pool[T]
	for _, p := range pools {
		switch p.Name {
		case "random", "nan":
			out = append(out, p)
		case "finite", "zeros", "ties":
			if n <= 500 && !raceBuild {
				out = append(out, p)
			}
		}
	}
	return out
}

func TestReduceFolds(t *testing.T) {
	var checks []func(*testing.T)
	checks = append(checks, foldChecks(testkit.Pools[float32])...)
	checks = append(checks, foldChecks(testkit.Pools[float64])...)
	checks = append(checks, foldChecks(testkit.IntPools[int8])...)
	checks = append(checks, foldChecks(testkit.IntPools[uint16])...)
	checks = append(checks, foldChecks(testkit.IntPools[int64])...)
	runChecks(t, checks)
}

// runChecks runs the checks under every implementation: their wants are
// computed once, so every implementation must give the same bits. Under
// -race, which looks at memory and not at bits, every third check runs,
// under the implementation in use.
func runChecks(t *testing.T, checks []func(*testing.T)) {
	if raceBuild {
		for i := 0; i < len(checks); i += 3 {
			checks[i](t)
		}
		return
	}
	testkit.EachImplementation(t, func(t *testing.T) {
		for _, c := range checks {
			c(t)
		}
	})
}

// foldChecks checks ReduceMax, ReduceMin, ReduceProd and ReduceArgMax and
// ReduceArgMin (over each single axis) against their definitions.
func foldChecks[T elem.Number](pools func(*rand.Rand, int) []testkit.Pool[T]) []func(*testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	type call struct {
		name   string
		reduce func(dst []T, dstShape Shape, a []T, aShape Shape, axes ...int) error
		ref    func([]T) T
		empty  bool // defined over no values
	}
	calls := []call{
		{"max", ReduceMax[T], func(v []T) T { return refExtreme(v, true) }, false},
		{"min", ReduceMin[T], func(v []T) T { return refExtreme(v, false) }, false},
		{"prod", ReduceProd[T], refProd[T], true},
	}
	var checks []func(*testing.T)
	for _, c := range moreCases(rng) {
		n, _ := c.shape.Size()
		reduced := c.reduced()
		idx := refIndexes(c.shape, reduced)
		var along [][][]int
		for ax := range c.shape {
			r := make([]bool, len(c.shape))
			r[ax] = true
			along = append(along, refIndexes(c.shape, r))
		}
		for _, pool := range thinPools(pools(rng, n), n) {
			what := fmt.Sprintf("%T %v axes %v %s", T(0), c.shape, c.axes, pool.Name)
			values := gatherOutputs(pool.Data, idx)
			for _, f := range calls {
				nothing := false
				want := applyEach(values, func(v []T) T {
					if len(v) == 0 {
						nothing = true
						return 1
					}
					return f.ref(v)
				})
				checks = append(checks, func(t *testing.T) {
					for _, dstShape := range dstShapes(c.shape, reduced) {
						dst := make([]T, len(want))
						err := f.reduce(dst, dstShape, pool.Data, c.shape, c.axes...)
						if nothing && !f.empty {
							requireErr(t, err, []error{ErrEmpty}, f.name)
							continue
						}
						require.NoError(t, err, what)
						testkit.RequireSameBits(t, want, dst, fmt.Sprintf("%s of %s into %v", f.name, what, dstShape))
					}
				})
			}
			for ax := range c.shape {
				checks = append(checks, argChecks(pool.Data, c.shape, ax, along[ax], what)...)
			}
		}
	}
	return checks
}

// argChecks checks ReduceArgMax and ReduceArgMin over axis ax.
func argChecks[T elem.Number](a []T, shape Shape, ax int, idx [][]int, what string) []func(*testing.T) {
	reduced := make([]bool, len(shape))
	reduced[ax] = true
	values := gatherOutputs(a, idx)
	var checks []func(*testing.T)
	for _, greatest := range []bool{true, false} {
		call, ref := ReduceArgMin[T], elem.ArgMin[T]
		if greatest {
			call, ref = ReduceArgMax[T], elem.ArgMax[T]
		}
		nothing := false
		want := applyEach(values, func(v []T) int {
			if len(v) == 0 {
				nothing = true
				return 0
			}
			return ref(v)
		})
		checks = append(checks, func(t *testing.T) {
			for _, dstShape := range dstShapes(shape, reduced) {
				dst := make([]int, len(want))
				err := call(dst, dstShape, a, shape, ax-len(shape))
				if nothing {
					requireErr(t, err, []error{ErrEmpty}, "arg")
					continue
				}
				require.NoError(t, err, what)
				require.Equal(t, want, dst, "arg (greatest %v) of %s over axis %d into %v", greatest, what, ax, dstShape)
			}
		})
	}
	return checks
}

func TestReduceMoments(t *testing.T) {
	var checks []func(*testing.T)
	checks = append(checks, momentChecks[float32, float32](testkit.Pools[float32])...)
	checks = append(checks, momentChecks[float64, float64](testkit.Pools[float64])...)
	checks = append(checks, momentChecks[float32, float64](testkit.Pools[float32])...)
	checks = append(checks, momentChecks[int16, float32](testkit.IntPools[int16])...)
	checks = append(checks, momentChecks[uint64, float64](testkit.IntPools[uint64])...)
	runChecks(t, checks)
}

// refMoment is ReduceMean (ddof < 0) or ReduceVarDdof, by their
// definitions, of v converted to F.
func refMoment[F elem.Float, T elem.Number](v []T, ddof int) F {
	x := make([]F, len(v))
	elem.Convert(x, v)
	divide := func(s F, n int) F {
		switch {
		case n > 0:
			return s / F(n)
		case s > 0:
			return F(math.Inf(1))
		case s == 0:
			return kernel.DefaultNaN[F]()
		}
		return s
	}
	m := divide(elem.Sum(x), len(x))
	if ddof < 0 {
		return m
	}
	dev := make([]F, len(x))
	for i, xi := range x {
		d := F(xi - m)
		dev[i] = F(d * d)
	}
	s := elem.Sum(dev)
	if s != s {
		s = firstNaNOr(x, true)
	}
	return divide(s, max(len(x)-ddof, 0))
}

// momentChecks checks ReduceMean, ReduceVar, ReduceVarDdof and ReduceStd
// against their definitions.
func momentChecks[T elem.Number, F elem.Float](pools func(*rand.Rand, int) []testkit.Pool[T]) []func(*testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	var checks []func(*testing.T)
	for _, c := range moreCases(rng) {
		n, _ := c.shape.Size()
		reduced := c.reduced()
		idx := refIndexes(c.shape, reduced)
		for _, pool := range thinPools(pools(rng, n), n) {
			what := fmt.Sprintf("%T->%T %v axes %v %s", T(0), F(0), c.shape, c.axes, pool.Name)
			values := gatherOutputs(pool.Data, idx)
			for _, ddof := range []int{-1, 0, 1, 5} {
				want := applyEach(values, func(v []T) F { return refMoment[F](v, ddof) })
				std := make([]F, len(want))
				for i, v := range want {
					std[i] = F(math.Sqrt(float64(v)))
				}
				checks = append(checks, func(t *testing.T) {
					for _, dstShape := range dstShapes(c.shape, reduced) {
						dst := make([]F, len(want))
						switch ddof {
						case -1:
							require.NoError(t, ReduceMean(dst, dstShape, pool.Data, c.shape, c.axes...), what)
						case 0:
							require.NoError(t, ReduceVar(dst, dstShape, pool.Data, c.shape, c.axes...), what)
						default:
							require.NoError(t, ReduceVarDdof(dst, dstShape, pool.Data, c.shape, ddof, c.axes...), what)
						}
						testkit.RequireSameBits(t, want, dst, fmt.Sprintf("moment %d of %s into %v", ddof, what, dstShape))
						if ddof == 0 {
							require.NoError(t, ReduceStd(dst, dstShape, pool.Data, c.shape, c.axes...), what)
							testkit.RequireSameBits(t, std, dst, fmt.Sprintf("std of %s into %v", what, dstShape))
						}
					}
				})
			}
		}
	}
	return checks
}

// TestReduceMomentsAccuracy checks the mean and variance of data with a
// large common offset (where the one-pass formula loses every digit)
// against math/big: two passes stay within a few ulp.
func TestReduceMomentsAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	for _, n := range []int{2, 3, 10, 100, 1000, 10000} {
		for _, offset := range []float64{1e3, 1e8, 1e15} { // the mean of data around 0 has no ulp bound: its sum cancels
			a := make([]float64, n)
			for i := range a {
				a[i] = offset + rng.NormFloat64()
			}
			mean, variance := bigMoments(a)
			var m, v, s [1]float64
			require.NoError(t, ReduceMean(m[:], S(), a, S(n)))
			require.NoError(t, ReduceVar(v[:], S(), a, S(n)))
			require.NoError(t, ReduceStd(s[:], S(), a, S(n)))
			what := fmt.Sprintf("n=%d offset %g", n, offset)
			requireULP(t, mean, m[0], 2, "mean "+what)
			if offset < 1e15 { // beyond, the deviations themselves are rounded to a few bits
				requireULP(t, variance, v[0], 4, "var "+what)
				requireULP(t, math.Sqrt(variance), s[0], 3, "std "+what)
			}
		}
	}
}

// bigMoments is the exact mean and population variance of a, rounded.
func bigMoments(a []float64) (float64, float64) {
	const prec = 2000
	sum := new(big.Float).SetPrec(prec)
	for _, x := range a {
		sum.Add(sum, big.NewFloat(x))
	}
	n := new(big.Float).SetPrec(prec).SetInt64(int64(len(a)))
	mean := new(big.Float).SetPrec(prec).Quo(sum, n)
	ss := new(big.Float).SetPrec(prec)
	for _, x := range a {
		d := new(big.Float).SetPrec(prec).Sub(big.NewFloat(x), mean)
		ss.Add(ss, d.Mul(d, d))
	}
	m, _ := mean.Float64()
	v, _ := ss.Quo(ss, n).Float64()
	return m, v
}

// requireULP checks got within ulps units in the last place of want.
func requireULP(t *testing.T, want, got float64, ulps float64, what string) {
	t.Helper()
	ulp := math.Nextafter(math.Abs(want), math.Inf(1)) - math.Abs(want)
	require.LessOrEqual(t, math.Abs(got-want)/ulp, ulps, "%s: got %v, want %v", what, got, want)
}

func TestReduceErrors(t *testing.T) {
	a := make([]float32, 12)
	requireErr(t, ReduceMax(make([]float32, 3), S(3), a[:0], S(3, 0), 1), []error{ErrEmpty}, "max", "(3,0)")
	requireErr(t, ReduceArgMin(make([]int, 3), S(3), a[:0], S(3, 0), 1), []error{ErrEmpty}, "argmin")
	require.NoError(t, ReduceMax(make([]float32, 0), S(0), a[:0], S(0, 3), 1), "no outputs, nothing to reduce")
	requireErr(t, ReduceMean(make([]float64, 2), S(2), a, S(3, 4), 1), []error{ErrIncompatible}, "mean", "(3,4)", "(3,1)")
	requireErr(t, ReduceArgMax(make([]int, 3), S(3), a, S(3, 4), 2), []error{ErrAxis}, "axis 2")
	requireErr(t, ReduceProd(a[:3], S(3), a, S(3, 4), 1), []error{ErrOverlap}, "shares memory")
	requireErr(t, ReduceCount(make([]int, 4), S(4), make([]bool, 10), S(3, 4), 0), []error{ErrDataLength})
	requireErr(t, Softmax(a[1:], a[:11], S(11), 0), []error{ErrOverlap}, "softmax")
	requireErr(t, LogSoftmax(a, a, S(3, 4), -3), []error{ErrAxis}, "axis -3")
	requireErr(t, Softmax(a[:11], a, S(3, 4), 0), []error{ErrDataLength})
	requireErr(t, LogSumExp(a[:3], S(3), a, S(3, 4), 0), []error{ErrIncompatible}, "log-sum-exp")
}

func TestReduceCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, c := range append(reduceCases(rng), shortReduceCases(rng)...) {
		n, err := c.shape.Size()
		require.NoError(t, err)
		reduced := c.reduced()
		for _, p := range []int{0, 1, 2, 100} { // percent true
			mask := make([]bool, n)
			for i := range mask {
				mask[i] = rng.IntN(100) < p
			}
			what := fmt.Sprintf("%v axes %v, %d%% true", c.shape, c.axes, p)
			count := func(v []bool) int {
				k := 0
				for _, x := range v {
					if x {
						k++
					}
				}
				return k
			}
			want := refReduce(mask, c.shape, reduced, count)
			wantAny := refReduce(mask, c.shape, reduced, func(v []bool) bool { return count(v) > 0 })
			wantAll := refReduce(mask, c.shape, reduced, func(v []bool) bool { return count(v) == len(v) })
			for _, dstShape := range dstShapes(c.shape, reduced) {
				got := make([]int, len(want))
				require.NoError(t, ReduceCount(got, dstShape, mask, c.shape, c.axes...), what)
				require.Equal(t, want, got, what)
				b := make([]bool, len(want))
				require.NoError(t, ReduceAny(b, dstShape, mask, c.shape, c.axes...), what)
				require.Equal(t, wantAny, b, "any "+what)
				require.NoError(t, ReduceAll(b, dstShape, mask, c.shape, c.axes...), what)
				require.Equal(t, wantAll, b, "all "+what)
			}
		}
	}
}

// TestReductionsAllocateNothing checks the reductions without a
// temporary of their own on short inner axes and on rows and columns: a
// call allocates nothing.
func TestReductionsAllocateNothing(t *testing.T) {
	if raceBuild {
		t.Skip("under -race the kernels' range reports move accumulators to the heap")
	}
	a := make([]float32, 6000)
	dst, idx := make([]float32, 2000), make([]int, 2000)
	for _, c := range []struct {
		name          string
		aShape, shape Shape
		axis          int
	}{
		{"rows of 3", S(2000, 3), S(2000), 1},
		{"rows of 16", S(375, 16), S(375), 1},
		{"rows of 100", S(60, 100), S(60), 1},
		{"columns of 2000", S(2000, 3), S(3), 0},
		{"columns of 40", S(40, 150), S(150), 0},
	} {
		n, _ := c.shape.Size()
		size, _ := c.aShape.Size()
		calls := map[string]func() error{
			"max":    func() error { return ReduceMax(dst[:n], c.shape, a[:size], c.aShape, c.axis) },
			"min":    func() error { return ReduceMin(dst[:n], c.shape, a[:size], c.aShape, c.axis) },
			"prod":   func() error { return ReduceProd(dst[:n], c.shape, a[:size], c.aShape, c.axis) },
			"mean":   func() error { return ReduceMean(dst[:n], c.shape, a[:size], c.aShape, c.axis) },
			"argmax": func() error { return ReduceArgMax(idx[:n], c.shape, a[:size], c.aShape, c.axis) },
			"cumsum": func() error { return CumSum(a[:size], a[:size], c.aShape, c.axis) },
		}
		if c.axis == 1 && c.aShape[1] >= cachedRows {
			calls["softmax"] = func() error { return Softmax(a[:size], a[:size], c.aShape, 1) }
		}
		for name, call := range calls {
			require.NoError(t, call(), name+" "+c.name)
			require.Zero(t, testing.AllocsPerRun(5, func() { _ = call() }), name+" "+c.name)
		}
	}
}

// TestReduceArgColumns checks ReduceArgMax and ReduceArgMin over the outer
// axis of matrices whose rows are about as wide as argMinGroups groups of
// the fused kernels (128 float32 values with AVX2, 256 with AVX-512) or
// wider, the rows' last group overlapping the one before it (the column
// kernels of argColumnsDirect too), and on more or fewer lines than
// fewArg, on data with NaNs, signed zeros, infinities and ties, and
// (without -short) over more lines than one block of argColumnsFused's
// index table, under every implementation.
func TestReduceArgColumns(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		argColumnChecks[float32](t)
		argColumnChecks[float64](t)
	})
}

func argColumnChecks[T elem.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	type shape struct{ lines, cols int }
	shapes := []shape{{2, 64}, {9, 255}, {17, 256}, {100, 257}, {33, 300}, {250, 513}, {5, 1024}, {10, 1024}, {9, 1100}}
	for _, s := range shapes {
		for _, pool := range testkit.Pools[T](rng, s.lines*s.cols) {
			requireArgColumns(t, pool.Data, s.lines, s.cols, pool.Name)
		}
	}
	if testing.Short() || raceBuild {
		return
	}
	// More lines than a block of argColumnsFused's index table (lowered
	// here to 1000), the extremes of some columns in a later block, NaNs
	// in others.
	saved := argTableLines
	argTableLines = 1000
	defer func() { argTableLines = saved }()
	lines, cols := 30000, 256
	a := make([]T, lines*cols)
	for i := range a {
		a[i] = T(math.Round(rng.NormFloat64() * 10))
	}
	for c := 0; c < cols; c += 3 {
		a[(lines-1-c)*cols+c] = 1000
		a[(lines-2-c)*cols+c] = -1000
	}
	for c := 1; c < cols; c += 5 {
		a[(20000+c)*cols+c] = T(math.NaN())
	}
	requireArgColumns(t, a, lines, cols, "rounded normal values, late extremes and NaNs")
}

// requireArgColumns requires ReduceArgMax and ReduceArgMin over the lines
// of the (lines, cols) matrix a to be elem's ArgMax and ArgMin of each
// column.
func requireArgColumns[T elem.Float](t *testing.T, a []T, lines, cols int, name string) {
	col := make([]T, lines)
	for _, greatest := range []bool{true, false} {
		ref, call := elem.ArgMin[T], ReduceArgMin[T]
		if greatest {
			ref, call = elem.ArgMax[T], ReduceArgMax[T]
		}
		want := make([]int, cols)
		for c := range want {
			for i := range col {
				col[i] = a[i*cols+c]
			}
			want[c] = ref(col)
		}
		got := make([]int, cols)
		require.NoError(t, call(got, S(cols), a, S(lines, cols), 0))
		require.Equal(t, want, got, "%T arg (greatest %v) over the lines of (%d, %d), %s", T(0), greatest, lines, cols, name)
	}
}

// TestReduceVarLargeDdof checks a variance over rows of three contiguous
// values whose divisor count - ddof is past what the split-fold kernel
// takes (a ddof of -300: 303): the passes run, with the kernel's bits up
// to the division.
func TestReduceVarLargeDdof(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	a := testkit.RandomData[float32](rng, 64*3)
	for i := range a {
		if a[i] != a[i] || math.IsInf(float64(a[i]), 0) {
			a[i] = 1
		}
	}
	got := make([]float32, 64)
	require.NoError(t, ReduceVarDdof(got, S(64), a, S(64, 3), -300, 1))
	for r := range got {
		x := a[r*3:][:3]
		m := ((x[0] + x[2]) + x[1]) / 3
		var q [3]float32
		for j, v := range x {
			d := v - m
			q[j] = float32(d * d)
		}
		want := ((q[0] + q[2]) + q[1]) / 303
		require.Equal(t, math.Float32bits(want), math.Float32bits(got[r]), "row %d of %v", r, x)
	}
}
