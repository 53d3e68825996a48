//go:build !purego

package kernel

import "unsafe"

// complexStep is the values of size bytes (8: complex64, 16: complex128)
// a product kernel of impl takes at a time, two registers, or 0 where impl
// has none.
func complexStep(impl Impl, size int) int {
	switch impl {
	case AVX2:
		return 64 / size
	case AVX512:
		return 128 / size
	}
	return 0
}

// magnitudeGroup is the values impl's magnitude kernel takes at a time, or
// 0.
func magnitudeGroup(impl Impl) int {
	switch impl {
	case AVX2:
		return 4
	case AVX512:
		return 8
	}
	return 0
}

// complexMulKernel runs impl's product kernel on n values (a multiple of
// its step) of complex64 (single) or complex128. The calls are direct:
// through a func value the operands would escape.
func complexMulKernel(impl Impl, d, a, b unsafe.Pointer, n int, single, conj bool) {
	switch {
	case single && impl == AVX2 && conj:
		mulConjC64AVX2((*complex64)(d), (*complex64)(a), (*complex64)(b), n)
	case single && impl == AVX2:
		mulC64AVX2((*complex64)(d), (*complex64)(a), (*complex64)(b), n)
	case single && conj:
		mulConjC64AVX512((*complex64)(d), (*complex64)(a), (*complex64)(b), n)
	case single:
		mulC64AVX512((*complex64)(d), (*complex64)(a), (*complex64)(b), n)
	case impl == AVX2 && conj:
		mulConjC128AVX2((*complex128)(d), (*complex128)(a), (*complex128)(b), n)
	case impl == AVX2:
		mulC128AVX2((*complex128)(d), (*complex128)(a), (*complex128)(b), n)
	case conj:
		mulConjC128AVX512((*complex128)(d), (*complex128)(a), (*complex128)(b), n)
	default:
		mulC128AVX512((*complex128)(d), (*complex128)(a), (*complex128)(b), n)
	}
}

// complexDotKernel runs impl's fused dot product kernel on n values (a
// multiple of 16) into the accumulators at acc.
func complexDotKernel(impl Impl, acc, a, b unsafe.Pointer, n int, single, conj bool) {
	switch {
	case single && impl == AVX2 && conj:
		dotConjC64AVX2((*float32)(acc), (*complex64)(a), (*complex64)(b), n)
	case single && impl == AVX2:
		dotC64AVX2((*float32)(acc), (*complex64)(a), (*complex64)(b), n)
	case single && conj:
		dotConjC64AVX512((*float32)(acc), (*complex64)(a), (*complex64)(b), n)
	case single:
		dotC64AVX512((*float32)(acc), (*complex64)(a), (*complex64)(b), n)
	case impl == AVX2 && conj:
		dotConjC128AVX2((*float64)(acc), (*complex128)(a), (*complex128)(b), n)
	case impl == AVX2:
		dotC128AVX2((*float64)(acc), (*complex128)(a), (*complex128)(b), n)
	case conj:
		dotConjC128AVX512((*float64)(acc), (*complex128)(a), (*complex128)(b), n)
	default:
		dotC128AVX512((*float64)(acc), (*complex128)(a), (*complex128)(b), n)
	}
}

// complexMagnitudeKernel runs impl's magnitude kernel on n values (a
// multiple of its group) until a group with a NaN, and returns how many
// values it set.
func complexMagnitudeKernel(impl Impl, d *float32, a *complex64, n int) int {
	if impl == AVX2 {
		return magC64AVX2(d, a, n)
	}
	return magC64AVX512(d, a, n)
}
