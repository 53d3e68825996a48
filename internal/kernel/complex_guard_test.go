//go:build linux

package kernel_test

import (
	"testing"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// TestComplexGuardPages runs the complex products, dot products and
// magnitudes on slices of every length to 100 ending at a guard page, and
// starting right after one, under every implementation: a kernel that
// reads or writes one element past its slices faults.
func TestComplexGuardPages(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		for n := range 101 {
			for _, atEnd := range []bool{true, false} {
				guardComplex[complex64, float32](t, n, atEnd)
				guardComplex[complex128, float64](t, n, atEnd)
			}
		}
	})
}

func guardComplex[C complex64 | complex128, F float32 | float64](t *testing.T, n int, atEnd bool) {
	slice := func() []C {
		g := testkit.NewGuardPages(t, 1)
		if atEnd {
			return testkit.AtEnd[C](g, n)
		}
		return testkit.AtStart[C](g, n)
	}
	a, b, d := slice(), slice(), slice()
	for i := range a {
		a[i], b[i] = C(complex(float64(i), 1)), C(complex(-0.5, float64(i)))
	}
	for _, conj := range []bool{false, true} {
		kernel.MulComplex(d, a, b, conj)
		var acc [kernel.Lanes]F
		kernel.DotComplex(acc[:], a, b, conj)
	}
	if x, ok := any(a).([]complex64); ok {
		g := testkit.NewGuardPages(t, 1)
		m := testkit.AtStart[float32](g, n)
		if atEnd {
			m = testkit.AtEnd[float32](g, n)
		}
		kernel.MagnitudeComplex64(m, x)
	}
}
