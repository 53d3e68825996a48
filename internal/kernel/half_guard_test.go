//go:build linux

package kernel_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// TestHalfGuardPages runs the conversions and the fused sums and dot
// products on slices of every length to 100 ending at a guard page, and
// starting right after one, under every implementation: a kernel that
// reads or writes one element past its slices faults.
func TestHalfGuardPages(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		for n := range 101 {
			for _, atEnd := range []bool{true, false} {
				place := func(g *testkit.GuardPages) func(int) []uint16 {
					if atEnd {
						return func(n int) []uint16 { return testkit.AtEnd[uint16](g, n) }
					}
					return func(n int) []uint16 { return testkit.AtStart[uint16](g, n) }
				}
				h, h2 := place(testkit.NewGuardPages(t, 1))(n), place(testkit.NewGuardPages(t, 1))(n)
				var f []float32
				if g := testkit.NewGuardPages(t, 1); atEnd {
					f = testkit.AtEnd[float32](g, n)
				} else {
					f = testkit.AtStart[float32](g, n)
				}
				for i := range f {
					f[i] = float32(i%32) - 7.5
				}
				for _, brain := range []bool{false, true} {
					kernel.NarrowHalf(h, f, brain)
					copy(h2, h)
					kernel.WidenHalf(f, h, brain)
					for i, x := range f {
						require.Equal(t, float32(i%32)-7.5, x, "n=%d brain=%v", n, brain) // exact in both formats
					}
					var acc [kernel.Lanes]float32
					kernel.HalfDot(acc[:], h, nil, nil, brain)
					kernel.HalfDot(acc[:], h, h2, nil, brain)
					kernel.HalfDot(acc[:], h, nil, f, brain)
				}
			}
		}
	})
}
