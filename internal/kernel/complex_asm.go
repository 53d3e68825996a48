//go:build !purego && (amd64 || arm64)

package kernel

import "unsafe"

// The complex kernels' entries: what every architecture's kernels need
// around them (the steps, the race annotations); complex_asm_<arch>.go
// picks the kernel (complexStep, complexMulKernel, ...).

// mulComplexKernel runs MulComplex's kernel over the whole steps of dst and
// returns how many products it wrote (none under Generic).
func mulComplexKernel[C complex64 | complex128](dst, a, b []C, conj bool) int {
	var zero C
	size := int(unsafe.Sizeof(zero))
	impl := implFor(classMemory, 3*len(dst)*size, false)
	step := complexStep(impl, size)
	if step == 0 {
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
	complexMulKernel(impl, unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(a)), unsafe.Pointer(unsafe.SliceData(b)), n, size == 8, conj)
	return n
}

// DotComplex adds the parts of the products a[i]*b[i] (a[i]*conj(b[i])
// when conj is set), as MulComplex gives them but for NaN payloads, into
// acc[j] for part j mod Lanes, as Sum adds the parts of the products, over
// the largest multiple of 16 values (a round of the accumulators), with
// the implementation in use; it returns how many values it took (none
// under Generic). F is C's part type.
func DotComplex[F float32 | float64, C complex64 | complex128](acc []F, a, b []C, conj bool) int {
	var zero C
	size := int(unsafe.Sizeof(zero))
	n := len(a) &^ 15
	impl := implFor(classMemory, 2*n*size, false)
	if n == 0 || complexStep(impl, size) == 0 {
		return 0
	}
	if raceEnabled {
		raceRead(a[:n])
		raceRead(b[:n])
		raceWrite(acc)
	}
	complexDotKernel(impl, unsafe.Pointer(&acc[0]), unsafe.Pointer(unsafe.SliceData(a)), unsafe.Pointer(unsafe.SliceData(b)), n, size == 8, conj)
	return n
}

// magnitudeKernel runs MagnitudeComplex64's kernel over the whole groups
// of dst, until a group with a NaN where the kernel leaves NaNs to the
// caller, and returns how many values it set and the group's length (0
// under Generic).
func magnitudeKernel(dst []float32, a []complex64) (done, group int) {
	impl := implFor(classMemory, 12*len(dst), false)
	group = magnitudeGroup(impl)
	if group == 0 {
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
	return complexMagnitudeKernel(impl, unsafe.SliceData(dst), unsafe.SliceData(a), n), group
}
