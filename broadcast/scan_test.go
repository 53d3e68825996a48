package broadcast

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/testkit"
)

func TestScans(t *testing.T) {
	var checks []func(*testing.T)
	checks = append(checks, scanChecks(testkit.Pools[float32])...)
	checks = append(checks, scanChecks(testkit.Pools[float64])...)
	checks = append(checks, scanChecks(testkit.IntPools[int16])...)
	checks = append(checks, scanChecks(testkit.IntPools[uint64])...)
	runChecks(t, checks)
	a := make([]float32, 12)
	requireErr(t, CumSum(a[1:], a[:11], S(11), 0), []error{ErrOverlap}, "cumulative sum")
	requireErr(t, CumProd(a, a, S(3, 4), 2), []error{ErrAxis}, "axis 2")
	requireErr(t, CumSum(a[:10], a, S(3, 4), 1), []error{ErrDataLength})
}

// scanChecks checks CumSum and CumProd along every axis of each case
// against elem's on each line of values.
func scanChecks[T elem.Number](pools func(*rand.Rand, int) []testkit.Pool[T]) []func(*testing.T) {
	rng := rand.New(rand.NewPCG(37, 38))
	var checks []func(*testing.T)
	cases := reduceCases(rng)
	if testing.Short() {
		cases = every(cases, 4)
	}
	for _, c := range append(cases, reduceCase{S(1024, 33), nil}) {
		n, _ := c.shape.Size()
		if testing.Short() && n > 20000 {
			continue
		}
		for _, pool := range thinPools(pools(rng, n), n) {
			a := pool.Data
			for ax := range c.shape {
				r := make([]bool, len(c.shape))
				r[ax] = true
				idx := refIndexes(c.shape, r)
				sum, prod := make([]T, n), make([]T, n)
				for o, v := range gatherOutputs(a, idx) {
					s, p := make([]T, len(v)), make([]T, len(v))
					elem.CumSum(s, v)
					elem.CumProd(p, v)
					for i, at := range idx[o] {
						sum[at], prod[at] = s[i], p[i]
					}
				}
				what := fmt.Sprintf("%T %v %s along %d", T(0), c.shape, pool.Name, ax)
				checks = append(checks, func(t *testing.T) {
					dst := make([]T, n)
					require.NoError(t, CumSum(dst, a, c.shape, ax), what)
					testkit.RequireSameBits(t, sum, dst, "cumsum "+what)
					require.NoError(t, CumProd(dst, a, c.shape, ax-len(c.shape)), what)
					testkit.RequireSameBits(t, prod, dst, "cumprod "+what)
					inPlace := append([]T(nil), a...)
					require.NoError(t, CumSum(inPlace, inPlace, c.shape, ax), what)
					testkit.RequireSameBits(t, sum, inPlace, "cumsum in place "+what)
				})
			}
		}
	}
	return checks
}
