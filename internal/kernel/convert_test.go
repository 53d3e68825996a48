package kernel_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// conversion is one pair of element types: its entry and reference on
// type-erased operands (see families_generated_test.go).
type conversion struct {
	from, to string
	run      func(m, n int, dst any, ldd int, src any, lds int, stream bool)
	ref      func(m, n int, dst any, ldd int, src any, lds int)
}

// caseOf returns the type case of an element type name.
func caseOf(cases []typeCase, name string) typeCase {
	for _, tc := range cases {
		if tc.name == name {
			return tc
		}
	}
	panic("no type case " + name)
}

// TestConvertMatchesGeneric runs every conversion with every
// implementation against the reference: every length to 300 and some long
// ones, the start offsets of offsetsFor, guard cells, and blocks of several
// rows.
func TestConvertMatchesGeneric(t *testing.T) {
	testkit.EachSIMDImplementation(t, func(t *testing.T) {
		cases := typeCases(7)
		rng := rand.New(rand.NewPCG(7, 8))
		for _, c := range conversions() {
			from, to := caseOf(cases, c.from), caseOf(cases, c.to)
			for _, n := range testLengths() {
				for _, off := range offsetsFor(n, true) {
					src := from.poolSlot(n, off, rng)
					dst := to.newSlot("T", n, (off+9)%16, rng)
					want := clone(dst.data)
					c.ref(1, n, want, 0, clone(src.data), 0)
					c.run(1, n, dst.data, 0, src.data, 0, to.stream(n, 2))
					what := fmt.Sprintf("%s to %s n=%d off=%d", c.from, c.to, n, off)
					requireSame(t, want, dst.data, what)
					dst.guards(t, what)
					src.guards(t, what)
				}
			}
			const m, n = 4, 37
			src := from.poolSlot(m*(n+3), 1, rng)
			dst := to.newSlot("T", m*(n+5), 2, rng)
			want := clone(dst.data)
			c.ref(m, n, want, n+5, src.data, n+3)
			c.run(m, n, dst.data, n+5, src.data, n+3, false)
			requireSame(t, want, dst.data, fmt.Sprintf("%s to %s %dx%d", c.from, c.to, m, n))
		}
	})
}

// TestConvertSpecials converts every special value of every type to every
// other type with every implementation.
func TestConvertSpecials(t *testing.T) {
	testkit.EachSIMDImplementation(t, func(t *testing.T) {
		cases := typeCases(8)
		for _, c := range conversions() {
			from, to := caseOf(cases, c.from), caseOf(cases, c.to)
			sp := specialBits(from.specials)
			for shift := range 17 {
				n := len(sp) + shift
				src := from.fromBits(n, func(i int) uint64 {
					if i < shift {
						return 0
					}
					return sp[i-shift]
				})
				want, got := to.makeOut("T", n), to.makeOut("T", n)
				c.ref(1, n, want, 0, src, 0)
				c.run(1, n, got, 0, src, 0, false)
				requireSame(t, want, got, fmt.Sprintf("%s to %s shift %d", c.from, c.to, shift))
			}
		}
	})
}

// TestFloatToIntRule pins the reference's float-to-integer rule against
// math/big: truncation toward zero, NaN to 0, saturation at the limits.
func TestFloatToIntRule(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1.5, -1.5, 127.9, 128, -128.5, -129, 255.5, 256, 32767.5, 32768,
		-32769, 65535.9, 65536, 2147483647, 2147483648, -2147483648.5, -2147483649, 4294967295.5, 4294967296,
		0x1p62, 0x1p63, -0x1p63, -0x1p63 - 4096, 0x1p64, 1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324}
	rng := rand.New(rand.NewPCG(9, 9))
	for range 2000 {
		vals = append(vals, math.Ldexp(rng.Float64()*2-1, rng.IntN(70)))
	}
	check := func(name string, bits int, signed bool, conv func(float64) *big.Int) {
		lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), uint(bits))
		if signed {
			lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)))
			hi = new(big.Int).Lsh(big.NewInt(1), uint(bits-1))
		}
		hi.Sub(hi, big.NewInt(1))
		for _, v := range vals {
			want := big.NewInt(0)
			if !math.IsNaN(v) {
				switch {
				case math.IsInf(v, 1):
					want.Set(hi)
				case math.IsInf(v, -1):
					want.Set(lo)
				default:
					want, _ = big.NewFloat(math.Trunc(v)).Int(nil)
					if want.Cmp(lo) < 0 {
						want.Set(lo)
					}
					if want.Cmp(hi) > 0 {
						want.Set(hi)
					}
				}
			}
			require.Zero(t, want.Cmp(conv(v)), "%v to %s: want %v, got %v", v, name, want, conv(v))
		}
	}
	check("int8", 8, true, func(v float64) *big.Int { return big.NewInt(int64(conv1[int8](v))) })
	check("int16", 16, true, func(v float64) *big.Int { return big.NewInt(int64(conv1[int16](v))) })
	check("int32", 32, true, func(v float64) *big.Int { return big.NewInt(int64(conv1[int32](v))) })
	check("int64", 64, true, func(v float64) *big.Int { return big.NewInt(conv1[int64](v)) })
	check("uint8", 8, false, func(v float64) *big.Int { return new(big.Int).SetUint64(uint64(conv1[uint8](v))) })
	check("uint16", 16, false, func(v float64) *big.Int { return new(big.Int).SetUint64(uint64(conv1[uint16](v))) })
	check("uint32", 32, false, func(v float64) *big.Int { return new(big.Int).SetUint64(uint64(conv1[uint32](v))) })
	check("uint64", 64, false, func(v float64) *big.Int { return new(big.Int).SetUint64(conv1[uint64](v)) })
}

// conv1 converts one float64 with the reference.
func conv1[D kernel.Integer](v float64) D {
	d := []D{0}
	kernel.ReferenceConvert(1, 1, d, 0, []float64{v}, 0)
	return d[0]
}
