//go:build linux

package kernel_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// TestArgColumns runs ArgColumns over every width to 70 columns (a
// register's, several, and the overlapping last vector) and a few line
// counts and strides, on values drawn from few distinct ones (ties) with
// NaNs, infinities and zeros of both signs, under every implementation,
// against the rule written as a loop; x ends at a guard page, and best
// and at too, so that a kernel touching past them faults.
func TestArgColumns(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		testArgColumns[float32, int32](t)
		testArgColumns[float64, int64](t)
	})
}

func testArgColumns[T float32 | float64, I int32 | int64](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	values := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, 1e-30}
	for w := 1; w <= 70; w++ {
		for _, lines := range []int{1, 2, 7, 20} {
			for _, extra := range []int{0, 3} {
				ld := w + extra
				g := testkit.NewGuardPages(t, 4)
				x := testkit.AtEnd[T](g, (lines-1)*ld+w)
				for i := range x {
					x[i] = T(values[rng.IntN(len(values))])
				}
				for _, least := range []bool{false, true} {
					gb, ga := testkit.NewGuardPages(t, 1), testkit.NewGuardPages(t, 1)
					best, at := testkit.AtEnd[T](gb, w), testkit.AtEnd[I](ga, w)
					want, wantAt := make([]T, w), make([]I, w)
					for c := range w {
						best[c], want[c] = T(values[rng.IntN(len(values))]), 0
						want[c] = best[c]
						at[c], wantAt[c] = -1, -1
					}
					for i := range lines {
						for c := range w {
							v, b := x[i*ld+c], want[c]
							takes := v > b && !least || v < b && least
							if takes || v != v && b == b {
								want[c], wantAt[c] = v, I(100+i)
							}
						}
					}
					if !kernel.ArgColumns(best, at, x, ld, lines, 100, least) {
						continue // no kernel here: the caller's loop runs
					}
					for c := range w {
						require.Equal(t, wantAt[c], at[c], "w %d, %d lines, ld %d, least %v: column %d", w, lines, ld, least, c)
						if want[c] == want[c] {
							require.Equal(t, want[c], best[c], "w %d, %d lines, least %v: column %d", w, lines, least, c)
						} else {
							require.True(t, best[c] != best[c], "column %d: a NaN", c)
						}
					}
				}
			}
		}
	}
}
