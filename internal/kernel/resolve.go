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

// PolicyToken identifies the dispatch in effect: resolved kernels stay
// right while it is the same (a caller keeps it, and so keeps it alive,
// beside what it resolved).
func PolicyToken() unsafe.Pointer { return unsafe.Pointer(active.Load()) }

// kernelAt returns the kernel at key in a table of assembly kernels (see
// the resolvers), as a resolved kernel K, or nil where there is none: the
// calling convention does not see a pointer's element type.
func kernelAt[K, F any](table []F, key uint) K {
	var k K
	if key < uint(len(table)) {
		k = *(*K)(unsafe.Pointer(&table[key]))
	}
	return k
}
