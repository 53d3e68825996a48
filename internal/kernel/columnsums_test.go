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

// TestColumnSums runs ColumnSums and ColumnSqDevs over widths to 70 columns, row counts
// below, at and past the 32 accumulator rows, every starting lane class
// and padded strides, under every implementation, against the order
// written as a loop (row r into accumulator row (lane + r) mod 32, one
// rounding per addition; for the squared deviations one per difference and
// square too), bit for bit, with values of mixed magnitudes
// whose sums depend on that order; x and the accumulators end at guard
// pages, so that a kernel touching past them faults, and the columns past
// those it reports must be untouched.
func TestColumnSums(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		testColumnSums[float32](t)
		testColumnSums[float64](t)
	})
}

func testColumnSums[T float32 | float64](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	value := func() T { return T(math.Ldexp(rng.Float64()-0.5, rng.IntN(40)-20)) }
	for w := 1; w <= 70; w += 1 + w/8 {
		for _, rows := range []int{1, 5, 31, 32, 33, 70, 131} {
			for _, lane := range []int{0, 1, 17, 31} {
				extra := rng.IntN(3)
				ldx, lda := w+extra, w+rng.IntN(3)
				nx, na := (rows-1)*ldx+w, (kernel.Lanes-1)*lda+w
				gx, ga := testkit.NewGuardPages(t, nx*8/4096+1), testkit.NewGuardPages(t, na*8/4096+1)
				x, acc := testkit.AtEnd[T](gx, nx), testkit.AtEnd[T](ga, na)
				for i := range x {
					x[i] = value()
				}
				gm := testkit.NewGuardPages(t, 1)
				mean := testkit.AtEnd[T](gm, w)
				for i := range mean {
					mean[i] = value()
				}
				for _, squares := range []bool{false, true} {
					for i := range acc {
						acc[i] = value()
					}
					want := append([]T(nil), acc...)
					var done int
					if squares {
						done = kernel.ColumnSqDevs(acc, lda, x, ldx, rows, w, lane, mean)
					} else {
						done = kernel.ColumnSums(acc, lda, x, ldx, rows, w, lane)
					}
					require.GreaterOrEqual(t, done, 0)
					require.LessOrEqual(t, done, w)
					for r := range rows {
						p := (lane + r) % kernel.Lanes
						for c := range done {
							v := x[r*ldx+c]
							if squares {
								d := v - mean[c]
								v = T(d * d)
							}
							want[p*lda+c] += v
						}
					}
					for i := range acc {
						require.Equal(t, math.Float64bits(float64(want[i])), math.Float64bits(float64(acc[i])),
							"squares %v, w %d, rows %d, lane %d: element %d (row %d, column %d) of %d columns done", squares, w, rows, lane, i, i/lda, i%lda, done)
					}
				}
			}
		}
	}
}
