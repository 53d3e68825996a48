package expr

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/testkit"
)

// TestFusedGuardPages runs the fused kernels and the steps with every
// array (inputs and dst) flush against an inaccessible page, after it and
// before it: a load or store of one element past a row's end, or before
// its start, faults.
func TestFusedGuardPages(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 8))
		for _, n := range []int{31, 257, 1031} {
			for _, rows := range []int{1, 3} {
				for _, atEnd := range []bool{true, false} {
					place := func(k int) []float32 {
						g := testkit.NewGuardPages(t, (k*4+4095)/4096)
						if atEnd {
							return testkit.AtEnd[float32](g, k)
						}
						return testkit.AtStart[float32](g, k)
					}
					g := &gen[float32]{rng: rng, env: env[float32]{arrays: map[string][]float32{}, scalars: map[string]float32{"s": 1.25}}}
					x, w := place(rows*n), place(n)
					copy(x, testkit.RandomData[float32](rng, rows*n))
					copy(w, testkit.RandomData[float32](rng, n))
					g.env.arrays["x"], g.env.arrays["w"] = x, w
					root := Sub(Mul(Input[float32]("x", rows, n), Input[float32]("w", n)), Scalar[float32]("s"))
					p, err := Compile(root)
					require.NoError(t, err)
					want := reference(root.n, p.Shape(), g.env)
					for _, fused := range []bool{true, false} {
						forceFusion(p, fused)
						what := fmt.Sprintf("%d rows of %d, at the guard page's %s, fused %v", rows, n, map[bool]string{true: "start", false: "end"}[!atEnd], fused)
						dst := place(rows * n)
						require.NoError(t, p.Run(dst, g.env.args(p)...), what)
						testkit.RequireSameBits(t, want, dst, what)
					}
				}
			}
		}
	})
}
