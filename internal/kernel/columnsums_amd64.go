//go:build !purego

package kernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// columnSumsKernel runs ColumnSums' AVX-512 or AVX2 kernel where the
// dispatch picks one of them for the rows' bytes.
func columnSumsKernel[T Number](acc []T, lda int, x []T, ldx, rows, w, lane int) int {
	size := int(unsafe.Sizeof(T(0)))
	if !isFloat[T]() || !cpu.X86.HasAVX2 || ldx < 0 || lda < 0 {
		return 0
	}
	impl := implFor(classMemory, rows*w*size, false)
	vector := 32 / size
	if impl == AVX512 {
		vector = 64 / size
	}
	done := w &^ (vector - 1)
	if impl == Generic || done == 0 {
		return 0
	}
	acc, x = acc[:(Lanes-1)*lda+done], x[:(rows-1)*ldx+done] // the kernel's bounds, checked
	if raceEnabled {
		raceRead(x)
		raceWrite(acc)
	}
	a, p := (*byte)(unsafe.Pointer(&acc[0])), (*byte)(unsafe.Pointer(&x[0]))
	switch { // direct calls: through a func value, the pointers would escape
	case size == 4 && impl == AVX512:
		columnSums4AVX512(a, lda*size, p, ldx*size, rows, done*size, lane&(Lanes-1))
	case size == 4:
		columnSums4AVX2(a, lda*size, p, ldx*size, rows, done*size, lane&(Lanes-1))
	case impl == AVX512:
		columnSums8AVX512(a, lda*size, p, ldx*size, rows, done*size, lane&(Lanes-1))
	default:
		columnSums8AVX2(a, lda*size, p, ldx*size, rows, done*size, lane&(Lanes-1))
	}
	return done
}
