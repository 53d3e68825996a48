//go:build !purego

package kernel

import "unsafe"

// complexStep is the values of size bytes (8: complex64, 16: complex128)
// the NEON product kernels take at a time, two registers, or 0 where impl
// is not NEON.
func complexStep(impl Impl, size int) int {
	if impl != NEON {
		return 0
	}
	return 32 / size
}

// magnitudeGroup is the values the NEON magnitude kernel takes at a time,
// or 0. It takes NaNs and infinities itself.
func magnitudeGroup(impl Impl) int {
	if impl != NEON {
		return 0
	}
	return 4
}

// complexMulKernel runs the NEON product kernel on n values (a multiple of
// its step) of complex64 (single) or complex128.
func complexMulKernel(_ Impl, d, a, b unsafe.Pointer, n int, single, conj bool) {
	switch {
	case single && conj:
		mulConjC64NEON((*complex64)(d), (*complex64)(a), (*complex64)(b), n)
	case single:
		mulC64NEON((*complex64)(d), (*complex64)(a), (*complex64)(b), n)
	case conj:
		mulConjC128NEON((*complex128)(d), (*complex128)(a), (*complex128)(b), n)
	default:
		mulC128NEON((*complex128)(d), (*complex128)(a), (*complex128)(b), n)
	}
}

// complexDotKernel runs the NEON fused dot product kernel on n values (a
// multiple of 16) into the accumulators at acc.
func complexDotKernel(_ Impl, acc, a, b unsafe.Pointer, n int, single, conj bool) {
	switch {
	case single && conj:
		dotConjC64NEON((*float32)(acc), (*complex64)(a), (*complex64)(b), n)
	case single:
		dotC64NEON((*float32)(acc), (*complex64)(a), (*complex64)(b), n)
	case conj:
		dotConjC128NEON((*float64)(acc), (*complex128)(a), (*complex128)(b), n)
	default:
		dotC128NEON((*float64)(acc), (*complex128)(a), (*complex128)(b), n)
	}
}

// complexMagnitudeKernel runs the NEON magnitude kernel on n values (a
// multiple of 4): all of them.
func complexMagnitudeKernel(_ Impl, d *float32, a *complex64, n int) int {
	magC64NEON(d, a, n)
	return n
}
