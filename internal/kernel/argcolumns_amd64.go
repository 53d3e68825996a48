//go:build !purego

package kernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// argColumnsKernel runs ArgColumns' AVX-512 or AVX2 kernel, where the
// dispatch picks one of them and the columns fill one of its registers.
func argColumnsKernel[T Number, I int32 | int64](best []T, at []I, x []T, ld, lines, first int, least bool) bool {
	size, w := int(unsafe.Sizeof(T(0))), len(best)
	if !isFloat[T]() || int(unsafe.Sizeof(I(0))) != size || !cpu.X86.HasAVX2 || ld < 0 {
		return false
	}
	impl := implFor(classMemory, lines*w*size, false)
	if impl == Generic || w < 32/size {
		return false
	}
	at, x = at[:w], x[:(lines-1)*ld+w] // the kernel's bounds, checked
	if raceEnabled {
		raceRead(x)
		raceWrite(best)
		raceWrite(at)
	}
	l := 0
	if least {
		l = 1
	}
	b, a, p := (*byte)(unsafe.Pointer(&best[0])), (*byte)(unsafe.Pointer(&at[0])), (*byte)(unsafe.Pointer(&x[0]))
	wide := impl == AVX512 && w >= 64/size
	switch { // direct calls: through a func value, the pointers would escape
	case size == 4 && wide:
		argColumns4AVX512(b, a, p, ld*size, lines, w, first, l)
	case size == 4:
		argColumns4AVX2(b, a, p, ld*size, lines, w, first, l)
	case wide:
		argColumns8AVX512(b, a, p, ld*size, lines, w, first, l)
	default:
		argColumns8AVX2(b, a, p, ld*size, lines, w, first, l)
	}
	return true
}
