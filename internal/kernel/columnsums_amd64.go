//go:build !purego

package kernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// columnSumsKernel runs ColumnSums' AVX-512 or AVX2 kernel (ColumnSqDevs'
// where mean is set) where the dispatch picks one of them for the rows'
// bytes, as it picks for the compute-bound calls: the accumulators stay
// in registers, so a call is a stream of loads and adds that the wider
// registers halve. Zen 4 (AMD EPYC family 25 model 17), (1024, 1024)
// float32 over axis 0, us, 3 runs: ReduceSum 74-85 with the memory-bound
// calls' choice (AVX2 past the 32 KiB L1d) against 64-67 with AVX-512,
// ReduceVar 166-213 against 137-143.
func columnSumsKernel[T Number](acc []T, lda int, x []T, ldx, rows, w, lane int, mean []T) int {
	size := int(unsafe.Sizeof(T(0)))
	if !isFloat[T]() || !cpu.X86.HasAVX2 || ldx < 0 || lda < 0 {
		return 0
	}
	impl := implFor(classCompute, rows*w*size, false)
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
		raceRead(mean)
	}
	a, p := (*byte)(unsafe.Pointer(&acc[0])), (*byte)(unsafe.Pointer(&x[0]))
	wide, eight := 0, size/8
	if impl == AVX512 {
		wide = 1
	}
	if mean != nil {
		columnSqDevKernels[wide][eight](a, lda*size, p, ldx*size, rows, done*size, lane&(Lanes-1), (*byte)(unsafe.Pointer(&mean[0])))
	} else {
		columnSumKernels[wide][eight](a, lda*size, p, ldx*size, rows, done*size, lane&(Lanes-1))
	}
	return done
}

// columnSumKernels and columnSqDevKernels are the kernels by width (AVX2,
// AVX-512) and element size (4, 8 bytes). Called through these tables,
// their arguments escape: the accumulators are pooled scratch and the
// values and means the caller's heap slices already.
var (
	columnSumKernels = [2][2]func(acc *byte, lda int, x *byte, ldx, rows, w, lane int){
		{columnSums4AVX2, columnSums8AVX2}, {columnSums4AVX512, columnSums8AVX512},
	}
	columnSqDevKernels = [2][2]func(acc *byte, lda int, x *byte, ldx, rows, w, lane int, mean *byte){
		{columnSqDevs4AVX2, columnSqDevs8AVX2}, {columnSqDevs4AVX512, columnSqDevs8AVX512},
	}
)
