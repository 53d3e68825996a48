package kernel_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// halfFormat is a half format described plainly, for the reference
// conversions: its bits' value as a float64 by the format's definition, and
// every finite non-negative value in increasing order (which is the order
// of their bits).
type halfFormat struct {
	name       string
	mant, bias int
	values     []float64 // values[b] is the value of bits b, b <= largest
	largest    uint16    // the bits of the largest finite value
}

func newHalfFormat(name string, mant, bias int) *halfFormat {
	f := &halfFormat{name: name, mant: mant, bias: bias, largest: uint16((1<<(15-mant)-1)<<mant - 1)}
	for b := 0; b <= int(f.largest); b++ {
		f.values = append(f.values, f.decode(uint16(b)))
	}
	return f
}

// decode is the value of the finite non-negative bits b: (1 + m/2^mant) ·
// 2^(e-bias), or m/2^mant · 2^(1-bias) for e = 0.
func (f *halfFormat) decode(b uint16) float64 {
	e, m := int(b>>f.mant), float64(b&(1<<f.mant-1))
	if e == 0 {
		return math.Ldexp(m/math.Ldexp(1, f.mant), 1-f.bias)
	}
	return math.Ldexp(1+m/math.Ldexp(1, f.mant), e-f.bias)
}

// inf is the bits of +Inf.
func (f *halfFormat) inf() uint16 { return f.largest + 1 }

// round is x (not a NaN) rounded to the format, to nearest even, in
// float64 arithmetic (exact here): |x| over the ulp of its binade (or of
// the subnormals), rounded to an integer, times the ulp; ±Inf from half an
// ulp above the largest value on; then the bits that have that value.
func (f *halfFormat) round(x float64) uint16 {
	var sign uint16
	if math.Signbit(x) {
		sign, x = 0x8000, -x
	}
	if x == 0 {
		return sign
	}
	emin := 1 - f.bias
	_, exp := math.Frexp(x)
	ulp := math.Ldexp(1, max(exp-1, emin)-f.mant)
	r := math.RoundToEven(x/ulp) * ulp
	switch {
	case r > f.values[f.largest]:
		return sign | f.inf()
	case r == 0:
		return sign
	}
	_, exp = math.Frexp(r)
	if e := exp - 1; e >= emin {
		return sign | uint16(e+f.bias)<<f.mant | uint16(r/math.Ldexp(1, e-f.mant)-math.Ldexp(1, f.mant))
	}
	return sign | uint16(r/math.Ldexp(1, emin-f.mant))
}

var (
	float16Format  = newHalfFormat("float16", 10, 15)
	bfloat16Format = newHalfFormat("bfloat16", 7, 127)
)

// refNarrow32 is the reference conversion of the float32 bits b: round,
// or for a NaN its sign, the quiet bit and the top payload bits.
func refNarrow32(f *halfFormat, b uint32) uint16 {
	x := math.Float32frombits(b)
	if x != x {
		sign := uint16(b>>16) & 0x8000
		return sign | f.inf() | 1<<(f.mant-1) | uint16(b&0x7fffff>>(23-f.mant))
	}
	return f.round(float64(x))
}

// refWiden is the reference float32 of the half bits h: its value, or a
// NaN's sign and payload (quieted for float16, as they are for bfloat16).
func refWiden(f *halfFormat, h uint16) uint32 {
	sign, mag := uint32(h&0x8000)<<16, h&0x7fff
	switch {
	case mag > f.inf() && f == bfloat16Format:
		return uint32(h) << 16
	case mag > f.inf():
		return sign | 0x7fc00000 | uint32(mag&(1<<f.mant-1))<<(23-f.mant)
	case mag == f.inf():
		return sign | 0x7f800000
	}
	return sign | math.Float32bits(float32(f.decode(mag)))
}

// halfStride is the step between the float32 bit patterns of the sweep:
// every one (ELEM_HALF_STRIDE=1, make test-half) or a sample.
func halfStride() uint64 {
	if s, err := strconv.ParseUint(os.Getenv("ELEM_HALF_STRIDE"), 10, 64); err == nil && s > 0 {
		return s
	}
	if testing.Short() || testkit.Race {
		return 65521
	}
	return 1021
}

// TestHalfNarrow converts float32 bit patterns (every one with
// ELEM_HALF_STRIDE=1, a stride of them otherwise, plus every pattern near
// the formats' rounding boundaries) to float16 and bfloat16 under every
// implementation, in blocks whose lengths vary (tails and offsets), against
// the reference by search, bit for bit.
func TestHalfNarrow(t *testing.T) {
	stride := halfStride()
	start := time.Now()
	testkit.EachImplementation(t, func(t *testing.T) {
		for _, f := range []*halfFormat{float16Format, bfloat16Format} {
			t.Run(f.name, func(t *testing.T) {
				sweepHalf(t, f, stride)
			})
		}
	})
	t.Logf("stride %d: %v", stride, time.Since(start))
}

func sweepHalf(t *testing.T, f *halfFormat, stride uint64) {
	brain := f == bfloat16Format
	const block = 4093 // odd, so blocks start at every offset of a vector
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Go(func() {
			src, dst := make([]float32, block+16), make([]uint16, block+16)
			var bits []uint32
			next := uint64(w) * block * stride
			for next < 1<<32 {
				bits = bits[:0]
				for i := uint64(0); i < block && next < 1<<32; i++ {
					bits = append(bits, uint32(next))
					next += stride
				}
				next += uint64(workers-1) * block * stride
				// Every pattern's neighbours by one bit: the ties and
				// the values beside them.
				for _, b := range bits[:min(len(bits), 3)] {
					bits = append(bits, b^1, b+1, b-1)
				}
				n := len(bits) - int(bits[0]%7) // vary the length
				for i, b := range bits[:n] {
					src[i] = math.Float32frombits(b)
				}
				kernel.NarrowHalf(dst[:n], src[:n], brain)
				for i, b := range bits[:n] {
					if want := refNarrow32(f, b); dst[i] != want {
						errs[w] = fmt.Errorf("%s(%#08x = %g) = %#04x, want %#04x", f.name, b, src[i], dst[i], want)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
}

// TestHalfBoundaries checks every float32 within 3 bits of each rounding
// boundary of both formats (a half value or the midpoint of two) and of
// the overflow threshold, all of them, whatever the sweep's stride.
func TestHalfBoundaries(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		for _, f := range []*halfFormat{float16Format, bfloat16Format} {
			var src []float32
			var bits []uint32
			for i, v := range f.values {
				points := []float64{v}
				if i+1 < len(f.values) {
					points = append(points, (v+f.values[i+1])/2)
				}
				for _, p := range points {
					b := math.Float32bits(float32(p))
					for d := -3; d <= 3; d++ {
						for _, s := range []uint32{0, 1 << 31} {
							bits = append(bits, (b+uint32(d))|s)
						}
					}
				}
			}
			for _, b := range bits {
				src = append(src, math.Float32frombits(b))
			}
			dst := make([]uint16, len(src))
			kernel.NarrowHalf(dst, src, f == bfloat16Format)
			for i, b := range bits {
				if want := refNarrow32(f, b); dst[i] != want {
					require.Equal(t, want, dst[i], "%s(%#08x = %g)", f.name, b, src[i])
				}
			}
		}
	})
}

// TestHalfWiden converts every float16 and bfloat16 to float32 under every
// implementation, at every offset, against the reference.
func TestHalfWiden(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		for _, f := range []*halfFormat{float16Format, bfloat16Format} {
			src := make([]uint16, 1<<16)
			for i := range src {
				src[i] = uint16(i)
			}
			for _, off := range []int{0, 1, 7, 13} {
				dst := make([]float32, len(src)-off)
				kernel.WidenHalf(dst, src[off:], f == bfloat16Format)
				for i, x := range dst {
					if h := src[off+i]; refWiden(f, h) != math.Float32bits(x) {
						require.Equal(t, refWiden(f, h), math.Float32bits(x), "%s(%#04x)", f.name, h)
					}
				}
			}
		}
	})
}

// TestHalfFrom64 rounds float64 values directly (never through float32,
// which would round twice) against the reference: random values over the
// formats' ranges, and values a hair beside each tie.
func TestHalfFrom64(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for _, f := range []*halfFormat{float16Format, bfloat16Format} {
		from := kernel.Float16From64
		if f == bfloat16Format {
			from = kernel.BFloat16From64
		}
		var xs []float64
		for i, v := range f.values[:len(f.values)-1] {
			mid := (v + f.values[i+1]) / 2
			xs = append(xs, v, mid, math.Nextafter(mid, 0), math.Nextafter(mid, math.Inf(1)))
		}
		for range 100000 {
			xs = append(xs, math.Ldexp(rng.Float64()+0.5, rng.IntN(2*f.bias+40)-f.bias-f.mant-20))
		}
		xs = append(xs, 0, math.Inf(1), math.MaxFloat64, 5e-324, 1e-310)
		for _, x := range xs {
			for _, s := range []float64{1, -1} {
				require.Equal(t, f.round(s*x), from(s*x), "%s(%v)", f.name, s*x)
			}
		}
		nan := math.Float64frombits(0x7ff4_0000_0000_0001) // signaling, payload 2^50+1
		want := 0x7c00 | 0x200 | 0x100
		if f == bfloat16Format {
			want = 0x7f80 | 0x40 | 0x20
		}
		require.Equal(t, uint16(want), from(nan), "%s(sNaN)", f.name)
	}
}

// TestHalfFromInt rounds integers once from their exact value, against
// math/big's rounding to the format's precision: through float32 or
// float64 some would round twice.
func TestHalfFromInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 64))
	xs := []int64{0, 1, -1, 2047, 2049, 65504, 65519, 65520, -65520, 1 << 24, 1<<24 + 1<<16 + 1, math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32}
	for range 100000 {
		xs = append(xs, rng.Int64()>>rng.IntN(63))
	}
	for _, f := range []*halfFormat{float16Format, bfloat16Format} {
		brain := f == bfloat16Format
		for _, x := range xs {
			r, _ := new(big.Float).SetPrec(uint(f.mant + 1)).SetMode(big.ToNearestEven).SetInt64(x).Float64()
			want := f.round(r) // exact: r already has the format's precision
			require.Equal(t, want, kernel.HalfFromInt(x, brain), "%s(%d)", f.name, x)
			if x >= 0 {
				require.Equal(t, want, kernel.HalfFromUint(uint64(x), brain), "%s(%d)", f.name, x)
			}
		}
		r, _ := new(big.Float).SetPrec(uint(f.mant + 1)).SetMode(big.ToNearestEven).SetUint64(math.MaxUint64).Float64()
		require.Equal(t, f.round(r), kernel.HalfFromUint(math.MaxUint64, brain), f.name)
	}
}
