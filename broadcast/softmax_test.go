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

// refSoftmax is the softmax family by its definition over the values v of
// one output: it returns Softmax, LogSoftmax and LogSumExp.
func refSoftmax[T elem.Float](v []T) (soft, logSoft []T, lse T) {
	soft, logSoft = make([]T, len(v)), make([]T, len(v))
	if len(v) == 0 {
		return soft, logSoft, T(math.Inf(-1))
	}
	m := elem.MaxOf(v)
	if m-m != 0 {
		for i := range v {
			soft[i], logSoft[i] = nanResult(m), nanResult(m)
		}
		if m != m {
			return soft, logSoft, nanResult(m)
		}
		return soft, logSoft, m
	}
	d := make([]T, len(v))
	for i, x := range v {
		d[i] = x - m
	}
	e := make([]T, len(v))
	elem.Exp(e, d)
	s := [1]T{elem.Sum(e)}
	for i := range e {
		soft[i] = e[i] / s[0]
	}
	elem.Log(s[:], s[:])
	for i := range d {
		logSoft[i] = d[i] - s[0]
	}
	return soft, logSoft, m + s[0]
}

func TestSoftmax(t *testing.T) {
	var checks []func(*testing.T)
	checks = append(checks, softmaxChecks(testkit.Pools[float32])...)
	checks = append(checks, softmaxChecks(testkit.Pools[float64])...)
	runChecks(t, checks)
}

// softmaxChecks checks Softmax and LogSoftmax over every axis, and
// LogSumExp over the axes of each case, against their definitions.
func softmaxChecks[T elem.Float](pools func(*rand.Rand, int) []testkit.Pool[T]) []func(*testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	var checks []func(*testing.T)
	cases := reduceCases(rng)
	if testing.Short() {
		cases = every(cases, 4)
	}
	cases = append(cases, reduceCase{S(32, 1000), []int{1}}, reduceCase{S(3, 2000), []int{1}},
		reduceCase{S(40, 3, 33), []int{1}}, reduceCase{S(5, 31, 2), []int{0, 2}}, reduceCase{S(257, 17), []int{1}},
		reduceCase{S(5000, 3), []int{1}}, reduceCase{S(4100, 2), []int{1}}) // several chunks of short rows
	for _, c := range cases {
		n, _ := c.shape.Size()
		if testing.Short() && n > 20000 {
			continue
		}
		reduced := c.reduced()
		for _, pool := range thinPools(pools(rng, n), n) {
			a := pool.Data
			what := fmt.Sprintf("%T %v %s", T(0), c.shape, pool.Name)
			lse := applyEach(gatherOutputs(a, refIndexes(c.shape, reduced)), func(v []T) T {
				_, _, l := refSoftmax(v)
				return l
			})
			checks = append(checks, func(t *testing.T) {
				for _, dstShape := range dstShapes(c.shape, reduced) {
					dst := make([]T, len(lse))
					require.NoError(t, LogSumExp(dst, dstShape, a, c.shape, c.axes...), what)
					testkit.RequireSameBits(t, lse, dst, fmt.Sprintf("log-sum-exp of %s axes %v into %v", what, c.axes, dstShape))
				}
			})
			for ax := range c.shape {
				r := make([]bool, len(c.shape))
				r[ax] = true
				idx := refIndexes(c.shape, r)
				soft, logSoft := make([]T, n), make([]T, n)
				for o, v := range gatherOutputs(a, idx) {
					s, l, _ := refSoftmax(v)
					for i, at := range idx[o] {
						soft[at], logSoft[at] = s[i], l[i]
					}
				}
				checks = append(checks, func(t *testing.T) {
					dst := make([]T, n)
					require.NoError(t, Softmax(dst, a, c.shape, ax), what)
					testkit.RequireSameBits(t, soft, dst, fmt.Sprintf("softmax of %s along %d", what, ax))
					require.NoError(t, LogSoftmax(dst, a, c.shape, ax-len(c.shape)), what)
					testkit.RequireSameBits(t, logSoft, dst, fmt.Sprintf("log-softmax of %s along %d", what, ax))
					inPlace := append([]T(nil), a...)
					require.NoError(t, Softmax(inPlace, inPlace, c.shape, ax), what)
					testkit.RequireSameBits(t, soft, inPlace, fmt.Sprintf("softmax in place of %s along %d", what, ax))
				})
			}
		}
	}
	return checks
}

// TestSoftmaxValues checks the family on values worked by hand and on the
// cases where the maximum is not finite.
func TestSoftmaxValues(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	a := []float64{1, 2, 3, 0, 0, 0, -inf, -inf, -inf, inf, 1, 2, 1, nan, 2}
	soft, logSoft, lse := make([]float64, 15), make([]float64, 15), make([]float64, 5)
	require.NoError(t, Softmax(soft, a, S(5, 3), 1))
	require.NoError(t, LogSoftmax(logSoft, a, S(5, 3), 1))
	require.NoError(t, LogSumExp(lse, S(5), a, S(5, 3), 1))
	e1, e2 := math.Exp(-1), math.Exp(-2)
	sum := 1 + e1 + e2
	require.InDeltaSlice(t, []float64{e2 / sum, e1 / sum, 1 / sum, 1.0 / 3, 1.0 / 3, 1.0 / 3}, soft[:6], 1e-16)
	require.InDeltaSlice(t, []float64{-2 - math.Log(sum), -1 - math.Log(sum), -math.Log(sum)}, logSoft[:3], 1e-15)
	require.InDeltaSlice(t, []float64{3 + math.Log(sum), math.Log(3)}, lse[:2], 1e-15)
	for i := 6; i < 15; i++ {
		require.True(t, math.IsNaN(soft[i]) && math.IsNaN(logSoft[i]), "element %d: %v %v", i, soft[i], logSoft[i])
	}
	require.Equal(t, []float64{-inf, inf}, lse[2:4], "all -Inf, and a +Inf")
	require.True(t, math.IsNaN(lse[4]))
	require.NoError(t, LogSumExp(lse[:2], S(2), a[:0], S(2, 0), 1))
	require.Equal(t, []float64{-inf, -inf}, lse[:2], "the log-sum-exp of nothing")
	huge := []float32{88, 88, -1e30} // exp(88) overflows float32 without the maximum taken out
	var got [1]float32
	require.NoError(t, LogSumExp(got[:], S(), huge, S(3)))
	require.Equal(t, float32(88+math.Ln2), got[0])
	require.NoError(t, Softmax(huge, huge, S(3), 0))
	require.Equal(t, []float32{0.5, 0.5, 0}, huge)
}

// TestLogSumExpAccuracy checks LogSumExp against math/big over values of
// many magnitudes: within 2 ulp.
func TestLogSumExpAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	for _, n := range []int{1, 2, 5, 100, 5000} {
		for _, scale := range []float64{1e-3, 1, 30, 700} {
			a := make([]float64, n)
			for i := range a {
				a[i] = scale * rng.NormFloat64()
			}
			var got [1]float64
			require.NoError(t, LogSumExp(got[:], S(), a, S(n)))
			requireULP(t, bigLogSumExp(a), got[0], 2, fmt.Sprintf("n=%d scale %g", n, scale))
		}
	}
}

// bigLogSumExp is log(sum(exp(a))) to about 2^-52 relative: the terms
// exp(x - m) within an ulp of float64, summed exactly in math/big, the
// sum rounded once.
func bigLogSumExp(a []float64) float64 {
	m := elem.MaxOf(a)
	s := new(big.Float).SetPrec(200)
	for _, x := range a {
		e := math.Exp(x - m) // within 1 ulp, 2^-52 relative: far below the 2-ulp bound once summed
		s.Add(s, big.NewFloat(e))
	}
	f, _ := s.Float64()
	return m + math.Log(f)
}

// TestSoftmaxRowsStreaming checks that Softmax and LogSoftmax along long
// rows give the same bits whether their last pass streams or not, also
// for rows longer than the scratch rows (Softmax then works in dst,
// LogSoftmax takes the passes of the other layouts).
func TestSoftmaxRowsStreaming(t *testing.T) {
	defer kernel.Restore(kernel.Save())
	rng := rand.New(rand.NewPCG(3, 4))
	for _, shape := range []Shape{{37, 300}, {2, 70000}} {
		a := make([]float32, shape[0]*shape[1])
		for i := range a {
			a[i] = float32(rng.NormFloat64() * 8)
		}
		row := shape[1]
		soft, logSoft, _ := refSoftmax(a[:row])
		for _, f := range []struct {
			name string
			run  func(dst, a []float32, shape Shape, axis int) error
			want []float32
		}{{"softmax", Softmax[float32], soft}, {"log-softmax", LogSoftmax[float32], logSoft}} {
			var out [2][]float32
			for i, min := range []int{math.MaxInt, 0} {
				kernel.SetStreamMinBytes(min)
				out[i] = make([]float32, len(a))
				require.NoError(t, f.run(out[i], a, shape, 1))
			}
			testkit.RequireSameBits(t, out[0], out[1], fmt.Sprintf("%s streaming or not, %v", f.name, shape))
			testkit.RequireSameBits(t, f.want, out[1][:row], fmt.Sprintf("%s, the first row of %v", f.name, shape))
		}
	}
}
