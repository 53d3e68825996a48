//go:build !purego

package kernel

import "unsafe"

// mulComplexKernel runs MulComplex64's or MulComplex128's kernel over the
// whole steps of dst and returns how many products it wrote (none under
// Generic). The steps are 4 values at the AVX2 width and 8 at the
// AVX-512 one, whichever the type: complex64 products are taken in
// float64, as Go takes them, two float32 parts widened per float64 pair.
func mulComplexKernel[C complex64 | complex128](dst, a, b []C, conj bool) int {
	impl := implFor(classMemory, 24*len(dst), false)
	step := 4
	switch impl {
	case AVX2:
	case AVX512:
		step = 8
	default:
		return 0
	}
	n := len(dst) &^ (step - 1)
	if n == 0 {
		return 0
	}
	if raceEnabled {
		raceWrite(dst[:n])
		raceRead(a[:n])
		raceRead(b[:n])
	}
	pd, pa, pb := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(a)), unsafe.Pointer(unsafe.SliceData(b))
	if unsafe.Sizeof(dst[0]) == 8 {
		d, x, y := (*complex64)(pd), (*complex64)(pa), (*complex64)(pb)
		switch {
		case impl == AVX2 && conj:
			mulConjC64AVX2(d, x, y, n)
		case impl == AVX2:
			mulC64AVX2(d, x, y, n)
		case conj:
			mulConjC64AVX512(d, x, y, n)
		default:
			mulC64AVX512(d, x, y, n)
		}
		return n
	}
	d, x, y := (*complex128)(pd), (*complex128)(pa), (*complex128)(pb)
	switch {
	case impl == AVX2 && conj:
		mulConjC128AVX2(d, x, y, n)
	case impl == AVX2:
		mulC128AVX2(d, x, y, n)
	case conj:
		mulConjC128AVX512(d, x, y, n)
	default:
		mulC128AVX512(d, x, y, n)
	}
	return n
}
