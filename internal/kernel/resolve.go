package kernel

import "unsafe"

// The resolved kernels: an op's assembly kernel for one call shape (kind,
// element type, implementation, store mode), as <Family>Kernel returns it,
// for callers that make the same call many times and would otherwise pay
// the entry's choices at every one. The arguments are m, n, then for each
// of dst and the inputs its first element and leading stride in elements.
// A resolved kernel checks nothing, makes no race annotations and is not
// split for preemption: a resolver returns one only where the entry would
// run it as it is.
type (
	Kernel2 func(m, n int, dst unsafe.Pointer, ldd int, a unsafe.Pointer, lda int)
	Kernel3 func(m, n int, dst unsafe.Pointer, ldd int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int)
	Kernel4 func(m, n int, dst unsafe.Pointer, ldd int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c unsafe.Pointer, ldc int)
)

// asKernel2, asKernel3 and asKernel4 view an assembly kernel, whose
// parameters are typed pointers, as a resolved kernel: the calling
// convention does not see a pointer's element type.
func asKernel2[F any](f F) Kernel2 { return *(*Kernel2)(unsafe.Pointer(&f)) }
func asKernel3[F any](f F) Kernel3 { return *(*Kernel3)(unsafe.Pointer(&f)) }
func asKernel4[F any](f F) Kernel4 { return *(*Kernel4)(unsafe.Pointer(&f)) }

// PolicyToken identifies the dispatch in effect: resolved kernels stay
// right while it is the same (a caller keeps it, and so keeps it alive,
// beside what it resolved).
func PolicyToken() unsafe.Pointer { return unsafe.Pointer(active.Load()) }
