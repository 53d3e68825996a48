package testkit

import (
	"math"
	"math/rand/v2"
)

// ComplexParts are the parts the complex tests combine: NaNs with payloads
// and both signs, signed zeros, infinities, subnormals, the largest and
// smallest normals, values whose products overflow or cancel.
var ComplexParts = []float64{
	math.Float64frombits(0x7ff8000000000005), math.Float64frombits(0xfff8000000000022), math.Float64frombits(0x7ff0000000000011),
	0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 1, -1, 1.5, -2.75, 3, 0.1, -0.3, 1e-310, -5e-324, math.MaxFloat64,
	-math.SmallestNonzeroFloat64, 0x1p-1022, 1e300, -1e-300, 1 + 0x1p-52, 1 - 0x1p-53, 1e38, 3e-39, 1e-45, 1.0000001,
}

// RandomComplex returns a value of random parts in ±2^[-20, 20), each one
// of ComplexParts one time in oneIn (never for 0).
func RandomComplex(rng *rand.Rand, oneIn int) complex128 {
	part := func() float64 {
		if oneIn > 0 && rng.IntN(oneIn) == 0 {
			return ComplexParts[rng.IntN(len(ComplexParts))]
		}
		return (rng.Float64()*2 - 1) * math.Pow(2, float64(rng.IntN(40)-20))
	}
	return complex(part(), part())
}
