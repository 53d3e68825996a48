package elem

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/simdkit/elem/internal/kernel"
)

// Float16 is an IEEE 754 binary16 value (1 sign, 5 exponent and 10
// mantissa bits) stored in 16 bits: the storage of machine-learning weights
// and activations. Arithmetic is not defined on it (the integer calls would
// treat its bits as a uint16): Convert it to float32, work, and Convert
// back, or use the calls that read it (SumHalf, DotHalf, Norm2Half,
// ScaleHalf). Conversions from float32 and float64 round to nearest even,
// once, with overflow to ±Inf and subnormal results kept; to float32 they
// are exact. A NaN keeps its sign and the top bits of its payload, with
// the quiet bit set (what F16C's VCVTPS2PH and NEON's FCVTN do); the same
// on every CPU and implementation.
type Float16 uint16

// BFloat16 is a bfloat16 value (1 sign, 8 exponent and 7 mantissa bits:
// the top half of a float32) stored in 16 bits. Conversions from float32
// and float64 round to nearest even (not truncate), overflow to ±Inf, and
// keep subnormals (not flush them); to float32 the bits are shifted, exact
// and NaNs as they are. A NaN narrowed keeps its sign and the top bits of
// its payload, quiet bit set, as Float16's.
type BFloat16 uint16

// Float16FromFloat32 returns x rounded to a Float16.
func Float16FromFloat32(x float32) Float16 { return Float16(kernel.Float16From32(x)) }

// Float16FromFloat64 returns x rounded to a Float16 once, directly (through
// float32 some values would round twice).
func Float16FromFloat64(x float64) Float16 { return Float16(kernel.Float16From64(x)) }

// Float32 returns h as a float32, exactly (a NaN quieted).
func (h Float16) Float32() float32 { return kernel.Float16To32(uint16(h)) }

// Float64 returns h as a float64, exactly.
func (h Float16) Float64() float64 { return float64(h.Float32()) }

// String formats h as the shortest decimal that reads back as h.
func (h Float16) String() string {
	return formatHalf(h.Float64(), func(x float64) bool { return Float16FromFloat64(x) == h })
}

// BFloat16FromFloat32 returns x rounded to a BFloat16.
func BFloat16FromFloat32(x float32) BFloat16 { return BFloat16(kernel.BFloat16From32(x)) }

// BFloat16FromFloat64 returns x rounded to a BFloat16 once, directly.
func BFloat16FromFloat64(x float64) BFloat16 { return BFloat16(kernel.BFloat16From64(x)) }

// Float32 returns h as a float32, exactly.
func (h BFloat16) Float32() float32 { return kernel.BFloat16To32(uint16(h)) }

// Float64 returns h as a float64, exactly.
func (h BFloat16) Float64() float64 { return float64(h.Float32()) }

// String formats h as the shortest decimal that reads back as h.
func (h BFloat16) String() string {
	return formatHalf(h.Float64(), func(x float64) bool { return BFloat16FromFloat64(x) == h })
}

// formatHalf is the shortest of x's decimal forms that same accepts
// (reads back as the same half value), without an exponent from 1e-4 to
// 1e21.
func formatHalf(x float64, same func(float64) bool) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	for digits := 1; digits < 17; digits++ {
		s := strconv.FormatFloat(x, 'g', digits, 64)
		if y, err := strconv.ParseFloat(s, 64); err == nil && same(y) {
			if a := math.Abs(y); strings.Contains(s, "e") && a >= 1e-4 && a < 1e21 {
				return strconv.FormatFloat(y, 'f', -1, 64) // 65500, not 6.55e+04, as NumPy
			}
			return s
		}
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// halfKind is which half format T is, if any: exactly Float16 or BFloat16
// (a type defined on them, or on uint16, is an integer type to elem).
type halfKind uint8

const (
	notHalf halfKind = iota
	float16Kind
	bfloat16Kind
)

func halfOf[T Number]() halfKind {
	switch any(*new(T)).(type) {
	case Float16:
		return float16Kind
	case BFloat16:
		return bfloat16Kind
	}
	return notHalf
}

// convertHalf is Convert where D or S is a half format: through float32 in
// pieces (exact for the half formats, and for 8- and 16-bit integers),
// but rounding once from float64 and from 32- and 64-bit integers.
func convertHalf[D, S Number](dst []D, src []S, to, from halfKind) {
	src = src[:len(dst)]
	switch {
	case to == from:
		copy(unsafe.Slice((*S)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)), src)
	case to == notHalf && isFloat32[D]():
		kernel.WidenHalf(kernel.FloatsOf[float32](dst), halves(src), from == bfloat16Kind)
	case from == notHalf && isFloat32[S]():
		kernel.NarrowHalf(halves(dst), kernel.FloatsOf[float32](src), to == bfloat16Kind)
	case from == notHalf && !exactInFloat32[S]():
		narrowOnce(halves(dst), src, to == bfloat16Kind)
	default: // through float32, a piece at a time
		var buf [1024]float32
		for len(dst) > 0 {
			n := min(len(dst), len(buf))
			b := buf[:n]
			switch from {
			case notHalf:
				Convert(b, src[:n])
			default:
				kernel.WidenHalf(b, halves(src[:n]), from == bfloat16Kind)
			}
			switch to {
			case notHalf:
				Convert(dst[:n], b)
			default:
				kernel.NarrowHalf(halves(dst[:n]), b, to == bfloat16Kind)
			}
			dst, src = dst[n:], src[n:]
		}
	}
}

// exactInFloat32 reports whether float32 holds every value of T exactly.
func exactInFloat32[T Number]() bool { return isFloat32[T]() || unsafe.Sizeof(T(0)) <= 2 }

// narrowOnce sets dst to src (float64 or 32- or 64-bit integers) rounded to
// a half format, directly from each value.
func narrowOnce[S Number](dst []uint16, src []S, brain bool) {
	var zero S
	switch {
	case isFloat[S]():
		from := kernel.Float16From64
		if brain {
			from = kernel.BFloat16From64
		}
		for i, x := range src {
			dst[i] = from(float64(x))
		}
	case zero-1 < zero: // signed
		for i, x := range src {
			dst[i] = kernel.HalfFromInt(int64(x), brain)
		}
	default:
		for i, x := range src {
			dst[i] = kernel.HalfFromUint(uint64(x), brain)
		}
	}
}

// halves returns x's memory as []uint16, for a half type T.
func halves[T Number](x []T) []uint16 {
	return unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
}
