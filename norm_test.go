package elem_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/testkit"
)

func TestCumSumCumProd(t *testing.T) {
	testScans[float32](t, testkit.Pools[float32])
	testScans[float64](t, testkit.Pools[float64])
	testScans[int8](t, testkit.IntPools[int8])
	testScans[uint32](t, testkit.IntPools[uint32])
}

func testScans[T elem.Number](t *testing.T, pools func(*rand.Rand, int) []testkit.Pool[T]) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, n := range []int{0, 1, 2, 7, 100, 1000} {
		for _, pool := range pools(rng, n) {
			a := pool.Data
			sum, prod := make([]T, n), make([]T, n)
			for i, x := range a {
				if i == 0 {
					sum[0], prod[0] = x, x
					continue
				}
				sum[i], prod[i] = T(sum[i-1]+x), T(prod[i-1]*x)
			}
			what := fmt.Sprintf("%T n=%d %s", T(0), n, pool.Name)
			got := make([]T, n)
			elem.CumSum(got, a)
			testkit.RequireSameBits(t, sum, got, "cumsum "+what)
			elem.CumProd(got, a)
			testkit.RequireSameBits(t, prod, got, "cumprod "+what)
			inPlace := append([]T(nil), a...)
			elem.CumSum(inPlace, inPlace)
			testkit.RequireSameBits(t, sum, inPlace, "cumsum in place "+what)
		}
	}
	testkit.RequirePanicContains(t, "CumSum: slice lengths differ", func() { elem.CumSum(make([]T, 2), make([]T, 3)) })
	x := make([]T, 4)
	testkit.RequirePanicContains(t, "CumProd", func() { elem.CumProd(x[1:], x[:3]) })
}

// bigNorm2 is the exact Euclidean norm of a, rounded to float64.
func bigNorm2(a []float64) float64 {
	s := new(big.Float).SetPrec(4000)
	for _, x := range a {
		y := new(big.Float).SetPrec(4000).SetFloat64(x)
		s.Add(s, y.Mul(y, y))
	}
	f, _ := s.Sqrt(s).Float64()
	return f
}

// ulpsOff is |got - want| in units of the last place of want in T.
func ulpsOff[T elem.Float](got T, want float64) float64 {
	w := math.Abs(float64(T(want)))
	ulp := math.Nextafter(w, math.Inf(1)) - w
	if testkit.Is32[T]() {
		ulp = float64(math.Nextafter32(float32(w), float32(math.Inf(1)))) - w
	}
	return math.Abs(float64(got)-want) / ulp
}

func TestNorms(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		testNorms[float32](t)
		testNorms[float64](t)
	})
}

func testNorms[T elem.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	far := 120.0 // squares overflow float32, not the norm
	if !testkit.Is32[T]() {
		far = 1000
	}
	gens := map[string]func() float64{
		"unit":   func() float64 { return rng.NormFloat64() },
		"huge":   func() float64 { return math.Ldexp(rng.Float64()+0.5, int(far)-5-rng.IntN(4)) },
		"tiny":   func() float64 { return math.Ldexp(rng.Float64()+0.5, -int(far)+rng.IntN(4)) },
		"spread": func() float64 { return math.Ldexp(rng.NormFloat64(), rng.IntN(int(far))-int(far)/2) },
	}
	for _, n := range []int{1, 2, 3, 31, 1000, 5000} {
		for name, gen := range gens {
			a, b := make([]T, n), make([]T, n)
			a64, d64, abs := make([]float64, n), make([]float64, n), make([]T, n)
			for i := range a {
				a[i], b[i] = T(gen()), T(gen())
				a64[i] = float64(a[i])
				d64[i] = float64(T(a[i] - b[i]))
				abs[i] = T(math.Abs(float64(a[i])))
			}
			what := fmt.Sprintf("%T n=%d %s", T(0), n, name)
			require.LessOrEqual(t, ulpsOff(elem.Norm2(a), bigNorm2(a64)), 1.0, "norm2 "+what)
			require.LessOrEqual(t, ulpsOff(elem.Distance(a, b, 2), bigNorm2(d64)), 1.0, "distance2 "+what)
			require.Equal(t, elem.Sum(abs), elem.Norm1(a), "norm1 "+what)
			require.Equal(t, elem.MaxOf(abs), elem.NormInf(a), "norminf "+what)
			for i := range abs {
				abs[i] = T(math.Abs(d64[i]))
			}
			require.Equal(t, elem.Sum(abs), elem.Distance(a, b, 1), "distance1 "+what)
			require.Equal(t, elem.MaxOf(abs), elem.Distance(a, b, math.Inf(1)), "distance inf "+what)
			cubes := make([]T, n)
			elem.PowScalar(cubes, abs, 3)
			r := []T{elem.Sum(cubes)}
			elem.PowScalar(r, r, 1.0/3)
			require.Equal(t, r[0], elem.Distance(a, b, 3), "distance 3 "+what)
		}
	}
}

func TestNormValues(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	require.InDelta(t, 3.3166247903554e200, elem.Norm2([]float64{1e200, 1e200, 3e200}), 1e187)
	require.Equal(t, float32(5), elem.Norm2([]float32{3, 4}))
	require.Equal(t, 5.0, elem.Norm2([]float64{-3, 4}))
	require.Equal(t, float32(7), elem.Norm1([]float32{-3, 4}))
	require.Equal(t, 4.0, elem.NormInf([]float64{-3, 4, -0}))
	for _, a := range [][]float64{{}, {0}, {math.Copysign(0, -1), 0}} {
		require.Zero(t, elem.Norm1(a))
		require.Zero(t, elem.Norm2(a))
		require.Zero(t, elem.NormInf(a))
	}
	require.Equal(t, inf, elem.Norm2([]float64{1, inf, -2}))
	require.Equal(t, inf, elem.NormInf([]float64{1, -inf}))
	require.True(t, math.IsNaN(elem.Norm2([]float64{1, inf, nan})))
	require.True(t, math.IsNaN(float64(elem.Norm2([]float32{1, float32(inf), float32(nan)}))))
	require.True(t, math.IsNaN(elem.NormInf([]float64{nan, inf})))
	require.True(t, math.IsNaN(elem.Distance([]float64{inf}, []float64{inf}, 1)), "Inf - Inf")
	require.Equal(t, math.Ldexp(5, -1074+2), elem.Norm2([]float64{math.Ldexp(3, -1074+2), math.Ldexp(4, -1074+2)}), "subnormals")
	require.InDelta(t, 2.0, elem.Distance([]float64{1, 2}, []float64{1, 0}, 0.5), 1e-15)
	testkit.RequirePanicContains(t, "p = 0", func() { elem.Distance([]float64{1}, []float64{1}, 0) })
	testkit.RequirePanicContains(t, "lengths differ", func() { elem.Distance([]float64{1}, []float64{1, 2}, 1) })
}
