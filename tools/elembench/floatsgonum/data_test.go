package floatsgonum

import (
	"math"
	"math/rand/v2"
	"slices"
)

// adversarial holds the values mixed into the tests' data: signed zeros,
// infinities, quiet NaNs of both signs and several payloads (math.NaN's,
// x86's default NaN), a signalling NaN, subnormals, the extremes of the
// normal range and neighbours of 1.
var adversarial = []float64{
	0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1),
	math.NaN(), math.Float64frombits(0xFFF8000000000000), math.Float64frombits(0x7FF8000000000123),
	math.Float64frombits(0xFFFC0000DEADBEEF), math.Float64frombits(0x7FF0000000000005),
	5e-324, -4.9e-322, 2.2e-308, -math.SmallestNonzeroFloat64 * 3,
	math.MaxFloat64, -math.MaxFloat64, 1e300, -1e-300,
	1, -1, math.Nextafter(1, 2), math.Nextafter(1, 0), 0.5, 3,
}

// profile is a kind of test data.
type profile int

const (
	clean   profile = iota // finite values over many magnitudes
	special                // a third of the values from adversarial
	nans                   // mostly NaNs
	ties                   // few distinct values, zeros of both signs among them
)

var profiles = []profile{clean, special, nans, ties}

// data returns n values of profile p, in a slice that starts off elements
// into its backing array (unaligned for off > 0).
func data(r *rand.Rand, p profile, n, off int) []float64 {
	s := make([]float64, n+off)[off:]
	for i := range s {
		switch {
		case p == ties:
			s[i] = []float64{0, math.Copysign(0, -1), 1, -1, 2.5}[r.IntN(5)]
		case p == nans && r.IntN(4) != 0, p == special && r.IntN(3) == 0:
			s[i] = adversarial[r.IntN(len(adversarial))]
		default:
			s[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(41)-20))
		}
	}
	return s
}

// testLengths are the lengths the tests try: every short one (elem's
// inline loops, gonum's tails) and some past elem's pieces and kernels'
// blocks.
var testLengths = append(seq(71), 127, 513, 1000, 4099)

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// scalars are the constants the tests pass for c and alpha.
var scalars = append(slices.Clone(adversarial), 0.1, -2.75, 1e-200, 7e200)

// clone returns a copy of s that starts off elements into its backing
// array.
func clone(s []float64, off int) []float64 {
	c := make([]float64, len(s)+off)[off:]
	copy(c, s)
	return c
}
