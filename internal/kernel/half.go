package kernel

import (
	"math"
	"math/bits"
	"unsafe"
)

// The half formats: IEEE binary16 (float16) and bfloat16 (the top half of
// a float32), each stored as a uint16.
const (
	f16Mant, f16Bias   = 10, 15
	bf16Mant, bf16Bias = 7, 127
)

// roundHalf rounds sign·m·2^e (m > 0) to the half format of mant mantissa
// bits, exponent bias bias and 8-bit (bfloat16) or 5-bit (float16)
// exponent, to nearest even, once: subnormal results kept, too large ones
// ±Inf. It is the reference of every narrowing conversion, from float32,
// float64 and integers alike.
func roundHalf(sign uint16, m uint64, e, mant, bias int) uint16 {
	msb := bits.Len64(m) - 1
	biased := msb + e + bias // the biased exponent if the result is normal
	drop := msb - mant       // the bits of m below the result's last
	if biased < 1 {          // subnormal: the last bit is worth 2^(1-bias-mant)
		drop = 1 - bias - mant - e
		biased = 1
	}
	var q uint64
	switch {
	case drop <= 0:
		q = m << -drop
	case drop > 64:
		q = 0 // below half the least subnormal
	default:
		q = m >> drop
		rem := m & (1<<drop - 1)
		if drop == 64 {
			q, rem = 0, m
		}
		half := uint64(1) << (drop - 1)
		if rem > half || rem == half && q&1 == 1 {
			q++
		}
	}
	// q holds the implicit bit at bit mant for a normal result (adding the
	// exponent field above carries a mantissa that rounded up to 2 into the
	// next exponent); a subnormal's q is below it.
	h := uint64(biased-1)<<mant + q
	if inf := uint64(1)<<(15-mant) - 1; h >= inf<<mant {
		h = inf << mant
	}
	return sign | uint16(h)
}

// Float16From32 returns x as a float16, rounded to nearest even: ±Inf past
// the largest (65504), subnormals kept, and a NaN with its sign and the top
// 9 bits of its payload under the quiet bit (what F16C's VCVTPS2PH gives).
func Float16From32(x float32) uint16 {
	b := math.Float32bits(x)
	sign, exp, man := uint16(b>>16)&0x8000, int(b>>23&0xff), uint64(b&0x7fffff)
	switch {
	case exp == 0xff && man != 0:
		return sign | 0x7e00 | uint16(man>>13)
	case exp == 0xff:
		return sign | 0x7c00
	case exp == 0 && man == 0:
		return sign
	case exp == 0:
		return roundHalf(sign, man, -149, f16Mant, f16Bias)
	}
	return roundHalf(sign, man|1<<23, exp-150, f16Mant, f16Bias)
}

// Float16From64 returns x as a float16, rounded once, directly from x
// (through float32 a value could round twice), with Float16From32's rules
// and the top 9 bits of a NaN's payload.
func Float16From64(x float64) uint16 {
	b := math.Float64bits(x)
	sign, exp, man := uint16(b>>48)&0x8000, int(b>>52&0x7ff), b&(1<<52-1)
	switch {
	case exp == 0x7ff && man != 0:
		return sign | 0x7e00 | uint16(man>>42)
	case exp == 0x7ff:
		return sign | 0x7c00
	case exp == 0 && man == 0:
		return sign
	case exp == 0:
		return roundHalf(sign, man, -1074, f16Mant, f16Bias)
	}
	return roundHalf(sign, man|1<<52, exp-1075, f16Mant, f16Bias)
}

// Float16To32 returns the float16 h as a float32: exact, a NaN quieted
// with its sign and payload (as F16C's VCVTPH2PS and NEON's FCVTL give it).
func Float16To32(h uint16) float32 {
	sign, exp, man := uint32(h&0x8000)<<16, uint32(h>>10&0x1f), uint32(h&0x3ff)
	switch {
	case exp == 0x1f && man != 0:
		return math.Float32frombits(sign | 0x7fc00000 | man<<13)
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000)
	case exp == 0 && man == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: man·2^-24, a normal float32
		shift := uint32(bits.LeadingZeros32(man)) - 21 // brings the top bit to bit 10
		return math.Float32frombits(sign | (113-shift)<<23 | (man<<shift)&0x3ff<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
}

// BFloat16From32 returns x as a bfloat16, rounded to nearest even (not
// truncated): ±Inf past the largest, subnormals kept (not flushed), and a
// NaN with its sign and the top 6 bits of its payload under the quiet bit,
// the float16 rule.
func BFloat16From32(x float32) uint16 {
	b := math.Float32bits(x)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40
	}
	return uint16((b + 0x7fff + b>>16&1) >> 16)
}

// BFloat16From64 returns x as a bfloat16, rounded once, directly from x.
func BFloat16From64(x float64) uint16 {
	b := math.Float64bits(x)
	sign, exp, man := uint16(b>>48)&0x8000, int(b>>52&0x7ff), b&(1<<52-1)
	switch {
	case exp == 0x7ff && man != 0:
		return sign | 0x7fc0 | uint16(man>>45)
	case exp == 0x7ff:
		return sign | 0x7f80
	case exp == 0 && man == 0:
		return sign
	case exp == 0:
		return roundHalf(sign, man, -1074, bf16Mant, bf16Bias)
	}
	return roundHalf(sign, man|1<<52, exp-1075, bf16Mant, bf16Bias)
}

// BFloat16To32 returns the bfloat16 h as a float32: its bits are the top
// half of the float32's, NaNs as they are.
func BFloat16To32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// HalfFromInt returns the integer x as a float16 (or bfloat16 when brain
// is set), rounded once from its exact value.
func HalfFromInt(x int64, brain bool) uint16 {
	return halfFromUint(uint64(x), x < 0, brain)
}

// HalfFromUint is HalfFromInt for an unsigned integer.
func HalfFromUint(x uint64, brain bool) uint16 { return halfFromUint(x, false, brain) }

func halfFromUint(x uint64, negative, brain bool) uint16 {
	var sign uint16
	if negative {
		sign, x = 0x8000, -x
	}
	if x == 0 {
		return sign
	}
	if brain {
		return roundHalf(sign, x, 0, bf16Mant, bf16Bias)
	}
	return roundHalf(sign, x, 0, f16Mant, f16Bias)
}

// NarrowHalf sets dst[i] to src[i] as a float16, or a bfloat16 when brain
// is set (Float16From32, BFloat16From32), for i < len(dst): the
// implementation's kernel on whole steps, the rest an element at a time,
// the same bits either way.
func NarrowHalf(dst []uint16, src []float32, brain bool) {
	src = src[:len(dst)]
	if raceEnabled {
		raceWrite(dst)
		raceRead(src)
	}
	stream, head := streamHead(dst, 6*len(dst))
	narrowScalar(dst[:head], src[:head], brain)
	done := head + narrowHalfKernel(dst[head:], src[head:], brain, stream)
	narrowScalar(dst[done:], src[done:], brain)
	FenceAfter(stream)
}

// narrowScalar is NarrowHalf value by value.
func narrowScalar(dst []uint16, src []float32, brain bool) {
	src = src[:len(dst)]
	if brain {
		for i, x := range src {
			dst[i] = BFloat16From32(x)
		}
		return
	}
	for i, x := range src {
		dst[i] = Float16From32(x)
	}
}

// streamHead reports whether a conversion of bytes bytes of traffic
// streams, and then how many values of dst precede its first 64-byte
// boundary (the streaming kernels' stores are aligned).
func streamHead[E uint16 | float32](dst []E, bytes int) (stream bool, head int) {
	if !HasStreaming || !streams(streaming, bytes) {
		return false, 0
	}
	var e E
	return true, min(len(dst), int(-uintptr(unsafe.Pointer(unsafe.SliceData(dst)))&63)/int(unsafe.Sizeof(e)))
}

// WidenHalf sets dst[i] to the float16 (bfloat16 when brain is set)
// src[i] as a float32, exactly, for i < len(dst). Past the streaming
// threshold the kernel writes with non-temporal stores (the values before
// dst's first 64-byte boundary converted on their own) and the call ends
// with a fence.
func WidenHalf(dst []float32, src []uint16, brain bool) {
	src = src[:len(dst)]
	if raceEnabled {
		raceWrite(dst)
		raceRead(src)
	}
	stream, head := streamHead(dst, 6*len(dst))
	widenScalar(dst[:head], src[:head], brain)
	done := head + widenHalfKernel(dst[head:], src[head:], brain, stream)
	widenScalar(dst[done:], src[done:], brain)
	FenceAfter(stream)
}

// widenScalar is WidenHalf value by value.
func widenScalar(dst []float32, src []uint16, brain bool) {
	src = src[:len(dst)]
	if brain {
		for i, h := range src {
			dst[i] = BFloat16To32(h)
		}
		return
	}
	for i, h := range src {
		dst[i] = Float16To32(h)
	}
}
