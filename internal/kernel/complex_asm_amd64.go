//go:build !purego

package kernel

import "unsafe"

// mulComplexKernel runs MulComplex64's or MulComplex128's kernel over the
// whole steps of dst and returns how many products it wrote (none under
// Generic). A step is two registers: 8 complex64 or 4 complex128 values at
// the AVX2 width, twice as many at the AVX-512 one.
func mulComplexKernel[C complex64 | complex128](dst, a, b []C, conj bool) int {
	impl := implFor(classMemory, 3*len(dst)*int(unsafe.Sizeof(dst[0])), false)
	step := 64 / int(unsafe.Sizeof(dst[0]))
	switch impl {
	case AVX2:
	case AVX512:
		step *= 2
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

// DotComplex adds the parts of the products a[i]*b[i] (a[i]*conj(b[i])
// when conj is set), as MulComplex64 and MulComplex128 give them but for
// NaN payloads, into acc[j] for part j mod Lanes, as Sum adds the parts of
// the products, over the largest multiple of 16 values (a round of the
// accumulators), with the implementation in use; it returns how many
// values it took (none under Generic). F is C's part type.
func DotComplex[F float32 | float64, C complex64 | complex128](acc []F, a, b []C, conj bool) int {
	n := len(a) &^ 15
	impl := implFor(classMemory, 2*n*int(unsafe.Sizeof(a[0])), false)
	if n == 0 || impl != AVX2 && impl != AVX512 {
		return 0
	}
	if raceEnabled {
		raceRead(a[:n])
		raceRead(b[:n])
		raceWrite(acc)
	}
	pa, pb := unsafe.Pointer(unsafe.SliceData(a)), unsafe.Pointer(unsafe.SliceData(b))
	if unsafe.Sizeof(a[0]) == 8 {
		s, x, y := (*float32)(unsafe.Pointer(&acc[0])), (*complex64)(pa), (*complex64)(pb)
		switch {
		case impl == AVX2 && conj:
			dotConjC64AVX2(s, x, y, n)
		case impl == AVX2:
			dotC64AVX2(s, x, y, n)
		case conj:
			dotConjC64AVX512(s, x, y, n)
		default:
			dotC64AVX512(s, x, y, n)
		}
		return n
	}
	s, x, y := (*float64)(unsafe.Pointer(&acc[0])), (*complex128)(pa), (*complex128)(pb)
	switch {
	case impl == AVX2 && conj:
		dotConjC128AVX2(s, x, y, n)
	case impl == AVX2:
		dotC128AVX2(s, x, y, n)
	case conj:
		dotConjC128AVX512(s, x, y, n)
	default:
		dotC128AVX512(s, x, y, n)
	}
	return n
}

// magnitudeKernel runs MagnitudeComplex64's kernel over the whole groups
// of dst until a group with a NaN, and returns how many values it set and
// the group's length (0 under Generic).
func magnitudeKernel(dst []float32, a []complex64) (done, group int) {
	impl := implFor(classMemory, 12*len(dst), false)
	switch impl {
	case AVX2:
		group = 4
	case AVX512:
		group = 8
	default:
		return 0, 0
	}
	n := len(dst) &^ (group - 1)
	if n == 0 {
		return 0, group
	}
	if raceEnabled {
		raceWrite(dst[:n])
		raceRead(a[:n])
	}
	if impl == AVX2 {
		return magC64AVX2(unsafe.SliceData(dst), unsafe.SliceData(a), n), group
	}
	return magC64AVX512(unsafe.SliceData(dst), unsafe.SliceData(a), n), group
}
