package kernel_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// complexValue is testkit's random value, special parts one time in 3.
func complexValue(rng *rand.Rand) complex128 { return testkit.RandomComplex(rng, 3) }

// narrowParts rounds a value's parts to float32 (NaN payloads' top bits
// kept, as a conversion keeps them).
func narrowParts(x complex128) complex64 { return complex64(x) }

// TestMulComplex runs the complex product kernels (a*b and a*conj(b)) on
// every length to 70 and at every offset of a vector, under every
// implementation, against the scalar products bit for bit; the scalar
// complex64 product against Go's own (the compiler's, which takes it in
// float64 too: a fused multiply-add cannot change it).
func TestMulComplex(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	testkit.EachImplementation(t, func(t *testing.T) {
		for n := range 71 {
			for off := range 4 {
				a64, b64, d64 := make([]complex64, n+off), make([]complex64, n+off), make([]complex64, n+off)
				a128, b128, d128 := make([]complex128, n+off), make([]complex128, n+off), make([]complex128, n+off)
				for i := range a128 {
					a128[i], b128[i] = complexValue(rng), complexValue(rng)
					a64[i], b64[i] = narrowParts(a128[i]), narrowParts(b128[i])
				}
				for _, conj := range []bool{false, true} {
					kernel.MulComplex(d64[off:], a64[off:], b64[off:], conj)
					kernel.MulComplex(d128[off:], a128[off:], b128[off:], conj)
					for i := off; i < n+off; i++ {
						y64, y128 := b64[i], b128[i]
						if conj {
							y64, y128 = complex(real(y64), -imag(y64)), complex(real(y128), -imag(y128))
						}
						require.Equal(t, bits64(kernel.MulC64(a64[i], y64)), bits64(d64[i]), "complex64 n=%d off=%d i=%d conj=%v: %v * %v", n, off, i, conj, a64[i], y64)
						require.Equal(t, bits128(kernel.MulC128(a128[i], y128)), bits128(d128[i]), "complex128 n=%d off=%d i=%d conj=%v: %v * %v", n, off, i, conj, a128[i], y128)

					}
				}
			}
		}
	})
}

// requireSameUpToNaN requires Go's own result's bits, but of a NaN part
// only that it is a NaN: the compiler takes a sum's operands in either
// order (the addition commutes in its rules), and which of two NaNs an
// addition returns depends on the order (elem's NaN parts are the quiet
// NaN).
func requireSameUpToNaN[C complex64 | complex128](t *testing.T, want, got C, what string) {
	w, g := complex128(want), complex128(got)
	wb, gb := bits128(w), bits128(g)
	for k, x := range []float64{real(w), imag(w)} {
		if x != x {
			require.True(t, [2]bool{real(g) != real(g), imag(g) != imag(g)}[k], "%s: %v, want %v", what, got, want)
			wb[k] = gb[k]
		}
	}
	require.Equal(t, wb, gb, "%s: %v, want %v", what, got, want)
}

func bits64(x complex64) [2]uint32 {
	return [2]uint32{math.Float32bits(real(x)), math.Float32bits(imag(x))}
}

func bits128(x complex128) [2]uint64 {
	return [2]uint64{math.Float64bits(real(x)), math.Float64bits(imag(x))}
}

// TestMulC128Rounding checks the complex128 product's parts against
// ar·br − ai·bi and ar·bi + ai·br with each product rounded, computed in
// math/big: the rounding of each product, then of the sum, by definition.
func TestMulC128Rounding(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	round := func(x *big.Float) float64 { f, _ := x.Float64(); return f }
	prod := func(x, y float64) *big.Float {
		return new(big.Float).SetFloat64(round(new(big.Float).SetPrec(2000).Mul(big.NewFloat(x), big.NewFloat(y))))
	}
	for range 20000 {
		a, b := complexValue(rng), complexValue(rng)
		got := kernel.MulC128(a, b)
		ar, ai, br, bi := real(a), imag(a), real(b), imag(b)
		if hasSpecial(ar, ai, br, bi) || hasSpecial(ar*br, ai*bi, ar*bi, ai*br) {
			continue
		}
		re := round(new(big.Float).SetPrec(2000).Sub(prod(ar, br), prod(ai, bi)))
		im := round(new(big.Float).SetPrec(2000).Add(prod(ar, bi), prod(ai, br)))
		require.Equal(t, bits128(complex(re, im)), bits128(got), "%v * %v", a, b)
	}
}

func hasSpecial(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return true
		}
	}
	return false
}

// TestDivComplex checks the division against Go's own on amd64 (the
// runtime's complex128div, which the compiler does not fuse there) for
// every pair of special parts and random values, both types.
func TestDivComplex(t *testing.T) {
	if !goDivisionUnfused {
		t.Skip("Go's runtime division may be fused here")
	}
	var xs []complex128
	for _, r := range testkit.ComplexParts {
		for _, i := range testkit.ComplexParts[:12] {
			xs = append(xs, complex(r, i))
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 2000 {
		xs = append(xs, complexValue(rng))
	}
	for _, a := range xs {
		for k := range 60 {
			b := xs[(k*7919+int(math.Float64bits(real(a))%1000))%len(xs)]
			requireSameUpToNaN(t, a/b, kernel.DivC128(a, b), "complex128 division")
			a64, b64 := complex64(a), complex64(b)
			requireSameUpToNaN(t, a64/b64, kernel.DivC64(a64, b64), "complex64 division")
		}
	}
}

// TestMagnitudeComplex64 runs the magnitude kernel on every length to 70
// at every offset, with special parts among random ones (NaN groups stop
// the kernel, tiny and huge values take its float64 root), under every
// implementation, against MagC64 bit for bit.
func TestMagnitudeComplex64(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	testkit.EachImplementation(t, func(t *testing.T) {
		for n := range 71 {
			for off := range 3 {
				for _, special := range []int{0, 3, 40} { // one value in special is special (0: none)
					a, d := make([]complex64, n+off), make([]float32, n+off)
					for i := range a {
						a[i] = complex64(complex(rng.NormFloat64(), rng.NormFloat64()))
						if special > 0 && rng.IntN(special) == 0 {
							a[i] = narrowParts(complexValue(rng))
						}
					}
					kernel.MagnitudeComplex64(d[off:], a[off:])
					for i := off; i < n+off; i++ {
						require.Equal(t, math.Float32bits(kernel.MagC64(a[i])), math.Float32bits(d[i]), "n=%d off=%d |%v|", n, off, a[i])
					}
				}
			}
		}
	})
}

// TestMagC64Accuracy checks MagC64 within 1 ulp of the exact |z| (math/big)
// on random values over the whole exponent range and on the special ones.
func TestMagC64Accuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for k := range 200000 {
		var z complex64
		if k < len(testkit.ComplexParts)*len(testkit.ComplexParts) {
			z = complex(float32(testkit.ComplexParts[k/len(testkit.ComplexParts)]), float32(testkit.ComplexParts[k%len(testkit.ComplexParts)]))
		} else {
			part := func() float32 {
				return float32(math.Ldexp(rng.Float64()*2-1, rng.IntN(300)-160))
			}
			z = complex(part(), part())
		}
		got := kernel.MagC64(z)
		re, im := float64(real(z)), float64(imag(z))
		switch {
		case math.IsInf(re, 0) || math.IsInf(im, 0):
			require.Equal(t, float32(math.Inf(1)), got, "|%v|", z)
			continue
		case math.IsNaN(re) || math.IsNaN(im):
			require.Equal(t, uint32(0x7fc00000), math.Float32bits(got), "|%v|", z)
			continue
		}
		exact := new(big.Float).SetPrec(300)
		exact.Add(new(big.Float).SetPrec(300).Mul(big.NewFloat(re), big.NewFloat(re)), new(big.Float).SetPrec(300).Mul(big.NewFloat(im), big.NewFloat(im)))
		exact.Sqrt(exact)
		want, _ := exact.Float64()
		w32 := float32(want)
		if math.IsInf(float64(w32), 0) { // past the largest float32, rounded
			require.Equal(t, w32, got, "|%v|", z)
			continue
		}
		ulp := float64(math.Nextafter32(w32, float32(math.Inf(1))) - w32)
		if w32 == 0 {
			ulp = math.SmallestNonzeroFloat32
		}
		diff, _ := new(big.Float).Sub(exact, big.NewFloat(float64(got))).Float64()
		require.LessOrEqual(t, math.Abs(diff), ulp, "|%v| = %v, exact %v", z, got, want)
	}
}
