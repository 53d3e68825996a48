//go:build !purego

package kernel

import "unsafe"

// mulComplexKernel runs MulComplex64's or MulComplex128's NEON kernel over
// the whole steps of dst (two registers: 4 complex64 or 2 complex128
// values) and returns how many products it wrote (none under Generic).
func mulComplexKernel[C complex64 | complex128](dst, a, b []C, conj bool) int {
	step := 32 / int(unsafe.Sizeof(dst[0]))
	n := len(dst) &^ (step - 1)
	if n == 0 || implFor(classMemory, 3*len(dst)*int(unsafe.Sizeof(dst[0])), false) != NEON {
		return 0
	}
	if raceEnabled {
		raceWrite(dst[:n])
		raceRead(a[:n])
		raceRead(b[:n])
	}
	pd, pa, pb := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(a)), unsafe.Pointer(unsafe.SliceData(b))
	if unsafe.Sizeof(dst[0]) == 8 {
		if conj {
			mulConjC64NEON((*complex64)(pd), (*complex64)(pa), (*complex64)(pb), n)
		} else {
			mulC64NEON((*complex64)(pd), (*complex64)(pa), (*complex64)(pb), n)
		}
		return n
	}
	if conj {
		mulConjC128NEON((*complex128)(pd), (*complex128)(pa), (*complex128)(pb), n)
	} else {
		mulC128NEON((*complex128)(pd), (*complex128)(pa), (*complex128)(pb), n)
	}
	return n
}

// DotComplex is the amd64 file's, with the NEON kernels.
func DotComplex[F float32 | float64, C complex64 | complex128](acc []F, a, b []C, conj bool) int {
	n := len(a) &^ 15
	if n == 0 || implFor(classMemory, 2*n*int(unsafe.Sizeof(a[0])), false) != NEON {
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
		if conj {
			dotConjC64NEON(s, x, y, n)
		} else {
			dotC64NEON(s, x, y, n)
		}
		return n
	}
	s, x, y := (*float64)(unsafe.Pointer(&acc[0])), (*complex128)(pa), (*complex128)(pb)
	if conj {
		dotConjC128NEON(s, x, y, n)
	} else {
		dotC128NEON(s, x, y, n)
	}
	return n
}

// magnitudeKernel runs MagnitudeComplex64's NEON kernel over the whole
// groups of 4 values of dst (it takes NaNs and infinities itself), and
// returns how many values it set and the group's length (0 under Generic).
func magnitudeKernel(dst []float32, a []complex64) (done, group int) {
	if implFor(classMemory, 12*len(dst), false) != NEON {
		return 0, 0
	}
	n := len(dst) &^ 3
	if n == 0 {
		return 0, 4
	}
	if raceEnabled {
		raceWrite(dst[:n])
		raceRead(a[:n])
	}
	magC64NEON(unsafe.SliceData(dst), unsafe.SliceData(a), n)
	return n, 4
}
