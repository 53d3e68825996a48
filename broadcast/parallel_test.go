package broadcast

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/testkit"
)

// TestRunParallelMatchesRun splits every form of plan (rows, columns, tiles,
// odometers) with a small grain and compares with Run bit for bit.
func TestRunParallelMatchesRun(t *testing.T) {
	prev := parallelGrain
	parallelGrain = 7
	defer func() { parallelGrain = prev }()
	rng := rand.New(rand.NewPCG(23, 24))
	testkit.EachImplementation(t, func(t *testing.T) {
		for _, c := range [][2]Shape{
			{S(64, 33), S(33)}, {S(3, 1000), S(3, 1)}, {S(1, 5000), S()}, {S(4096, 3), S(3)},
			{S(8, 1, 16, 8), S(1, 6, 1, 8)}, {S(2, 700), S(700)}, {S(1000, 1), S(1, 9)}, {S(5), S(5)},
		} {
			na, _ := c[0].Size()
			nb, _ := c[1].Size()
			a, b := testkit.RandomData[float32](rng, na), testkit.RandomData[float32](rng, nb)
			p, err := NewPlan(RuleNumpy, c[0], c[1])
			require.NoError(t, err)
			for _, op := range elem.Ops() {
				want := make([]float32, p.OutLen())
				require.NoError(t, Run(p, op, want, a, b))
				for _, workers := range []int{0, 1, 2, 3, 8} {
					got := make([]float32, p.OutLen())
					require.NoError(t, RunParallel(p, workers, op, got, a, b))
					testkit.RequireSameBits(t, want, got, fmt.Sprintf("%v %s %v, %d workers", c[0], op, c[1], workers))
				}
			}
		}
	})
	p, err := NewPlan(RuleNumpy, S(4, 8), S(8))
	require.NoError(t, err)
	buf := make([]float32, 40)
	requireErr(t, RunParallel(p, 2, elem.OpAdd, buf[:32], buf[1:33], buf[:8]), errs(ErrOverlap))
}
