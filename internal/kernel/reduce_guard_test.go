//go:build linux

package kernel_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// TestReductionGuardPages runs every reduction on every length up to 130
// with each input flush against an inaccessible page, after it and before
// it: a read past either end of an input, in the last partial round or a
// search's last block, faults and kills the test.
func TestReductionGuardPages(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", testReductionGuardPages[float32])
		t.Run("float64", testReductionGuardPages[float64])
		t.Run("int8", testReductionGuardPages[int8])
		t.Run("int16", testReductionGuardPages[int16])
		t.Run("int32", testReductionGuardPages[int32])
		t.Run("int64", testReductionGuardPages[int64])
		t.Run("uint8", testReductionGuardPages[uint8])
		t.Run("uint16", testReductionGuardPages[uint16])
		t.Run("uint32", testReductionGuardPages[uint32])
		t.Run("uint64", testReductionGuardPages[uint64])
	})
}

func testReductionGuardPages[T kernel.Number](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	gs := []*testkit.GuardPages{testkit.NewGuardPages(t, 1), testkit.NewGuardPages(t, 1)}
	for _, atEnd := range []bool{true, false} {
		for _, r := range reductions[T]() {
			for n := 0; n <= 130; n++ {
				in := make([][]T, r.inputs)
				for i := range in {
					if atEnd {
						in[i] = testkit.AtEnd[T](gs[i], n)
					} else {
						in[i] = testkit.AtStart[T](gs[i], n)
					}
					for j := range in[i] {
						in[i][j] = T(2*j+1) / 4
					}
				}
				checkReduction(t, r, in, rng, fmt.Sprintf("%s n=%d at end %v", r.name, n, atEnd))
			}
		}
	}
}
