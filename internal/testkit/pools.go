package testkit

import (
	"math"
	"math/rand/v2"

	"github.com/simdkit/elem/internal/kernel"
)

// Pool is named test data for the reductions.
type Pool[T kernel.Number] struct {
	Name string
	Data []T
}

// Pools returns n values of each kind of data a reduction must get right:
// RandomData (specials everywhere), finite values of mixed signs and
// magnitudes, catastrophic cancellation, huge and tiny values mixed,
// subnormals, signed zeros, finite values with a few NaNs, and finite
// values with a few infinities.
func Pools[T Float](rng *rand.Rand, n int) []Pool[T] {
	gen := func(f func(i int) T) []T {
		out := make([]T, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	sign := func() float64 { return float64(1 - 2*rng.IntN(2)) }
	finite := func(int) T { return T(sign() * rng.Float64() * math.Pow(2, float64(rng.IntN(40)-20))) }
	// float32's exponent range is 2^±126; float64's reaches far beyond.
	far := 100.0
	if !Is32[T]() {
		far = 900
	}
	sp := Specials[T]()
	var nans, infs []T
	for _, x := range sp {
		switch {
		case x != x:
			nans = append(nans, x)
		case math.IsInf(float64(x), 0):
			infs = append(infs, x)
		}
	}
	sprinkle := func(from []T) func(int) T {
		return func(i int) T {
			if rng.IntN(64) == 0 {
				return from[rng.IntN(len(from))]
			}
			return finite(i)
		}
	}
	return []Pool[T]{
		{"random", RandomData[T](rng, n)},
		{"finite", gen(finite)},
		{"cancel", gen(func(i int) T {
			big := T(math.Pow(2, float64(20+rng.IntN(10))) * (1 + rng.Float64()))
			if i%2 == 1 {
				big = -big
			}
			return big + finite(i)/1024
		})},
		{"hugesmall", gen(func(i int) T {
			e := -far
			if rng.IntN(2) == 0 {
				e = far
			}
			return T(sign() * (1 + rng.Float64()) * math.Pow(2, e+float64(rng.IntN(8))))
		})},
		{"subnormal", gen(func(int) T {
			if Is32[T]() {
				return FromBits[T](uint64(rng.Uint32() & (1<<31 | 1<<23 - 1)))
			}
			return FromBits[T](rng.Uint64() & (1<<63 | 1<<52 - 1))
		})},
		{"zeros", gen(func(int) T { return T(math.Copysign(0, sign())) })},
		{"nan", gen(sprinkle(nans))},
		{"inf", gen(sprinkle(infs))},
	}
}

// IntPools returns n values of each kind of data an integer reduction must
// get right: random bit patterns with specials (RandomInts), extremes only
// (every sum wraps around, min and max sit at the type's ends), values in
// -3..3 (many ties, where the first index counts), and an ascending ramp
// (wrapping in the narrow types), whose greatest element comes late.
func IntPools[T Integer](rng *rand.Rand, n int) []Pool[T] {
	sp := IntSpecials[T]()
	extremes := []T{sp[4], sp[6], sp[6] - 1, sp[6] + 1, 0, 1, sp[4] - 1} // all ones, the sign bit, its neighbours, 0, 1, -2
	gen := func(f func(i int) T) []T {
		out := make([]T, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	return []Pool[T]{
		{"random", RandomInts[T](rng, n)},
		{"extremes", gen(func(int) T { return extremes[rng.IntN(len(extremes))] })},
		{"ties", gen(func(int) T { return T(rng.IntN(7)) - 3 })},
		{"ramp", gen(func(i int) T { return T(i) })},
	}
}
